// The webhook's connection limit. Node's own `server.maxConnections` closes each connection past
// the limit as it opens: a client that opened that many and sent nothing held every slot until the
// handshake timeout, and `/healthz` (the kubelet's probe) was refused meanwhile. Here a connection
// past the limit takes the place of the oldest one that is serving no request (still in its TLS
// handshake, sending its headers or its body, or idle between requests); only when every
// connection is serving a request (converting a whole body, or writing its answer) is the new one
// closed.
import type { Server } from 'node:https';
import type { Socket } from 'node:net';

export interface ConnectionLimit {
  /** Applies the limit to the connections `server` accepts. */
  watch: (server: Server) => void;
  /** Marks `socket` (a request's TLS socket) as serving a request until the function it returns runs. */
  serving: (socket: Socket) => () => void;
}

interface Entry {
  /** The remote end, kept: a closed socket no longer tells it. */
  remote: string;
  /** The TLS socket over this TCP connection, once its handshake is done. */
  tls?: Socket;
  /** Requests being served on it (HTTP/1.1 serves one at a time; counted all the same). */
  requests: number;
}

/**
 * Keeps at most `max` connections open on the server it watches. `onClosed('evicted' | 'refused')`
 * is called for each connection closed to keep the limit.
 */
export function connectionLimit(max: number, onClosed: (how: 'evicted' | 'refused') => void): ConnectionLimit {
  // In the order they opened: the first idle one found is the oldest.
  const open = new Map<Socket, Entry>();
  // A TLS socket is matched to its TCP connection by the remote end, which is unique while both are open.
  const byRemote = new Map<string, Socket>();
  const remoteOf = (socket: Socket): string => `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;

  const accept = (raw: Socket): void => {
    if (open.size >= max) {
      const idle = [...open].find(([, entry]) => entry.requests === 0)?.[0];
      if (idle) {
        forget(idle);
        idle.destroy();
        onClosed('evicted');
      } else {
        raw.destroy();
        onClosed('refused');
        return;
      }
    }
    const remote = remoteOf(raw);
    open.set(raw, { remote, requests: 0 });
    byRemote.set(remote, raw);
    raw.once('close', () => forget(raw));
  };
  const secured = (tls: Socket): void => {
    const raw = byRemote.get(remoteOf(tls));
    const entry = raw && open.get(raw);
    if (entry) entry.tls = tls;
  };

  function forget(raw: Socket): void {
    const entry = open.get(raw);
    if (!entry) return;
    open.delete(raw);
    if (byRemote.get(entry.remote) === raw) byRemote.delete(entry.remote);
  }

  return {
    watch(server) {
      server.on('connection', accept);
      server.on('secureConnection', secured);
    },
    serving(tls) {
      const raw = byRemote.get(remoteOf(tls));
      const entry = raw && open.get(raw);
      if (!entry || entry.tls !== tls) return () => {};
      entry.requests++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        entry.requests--;
      };
    },
  };
}
