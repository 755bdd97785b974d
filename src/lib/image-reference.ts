// Image references, read as the distribution project's reference grammar reads them (the one
// podman, docker and the kubelet share): `ubuntu` is `docker.io/library/ubuntu`, `host:5000/a/b`
// has a registry, `name:tag@sha256:…` names both. Written here because the npm port of that
// grammar (@swimlane/docker-reference) backtracks for tens of seconds on some invalid input
// (`a/b:1@sha256:abc`), and an LLSD is untrusted input. Each part is split off first and then
// matched by an expression without nested quantifiers, so the time is linear in the length.
import { isDigest } from './digest.js';

export interface ImageReference {
  /** The registry as written or implied: `docker.io`, `quay.io`, `127.0.0.1:5000`. */
  registry: string;
  /** The repository inside the registry: `library/ubuntu`, `llamastack/distribution-starter`. */
  repository: string;
  tag?: string;
  digest?: string;
}

const maxNameLength = 255; // distribution's NameTotalLengthMax
const domainPattern = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
const pathComponentPattern = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const tagPattern = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** The reference, or what is wrong with it. */
export function parseReference(text: string): { ok: true; ref: ImageReference } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  if (text.length > 4 * maxNameLength) return fail(`is ${text.length} characters long`);
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!isDigest(digest)) {
      return fail(
        /^[a-z0-9]+([+._-][a-z0-9]+)*:[A-Za-z0-9=_-]+$/.test(digest) && !/^sha(256|512):/.test(digest)
          ? `"${digest.slice(0, 80)}" uses a digest algorithm llsd-render cannot check; use sha256 (sha256:<64 hex digits>)`
          : `"${digest.slice(0, 80)}" is not a digest (sha256:<64 hex digits>)`,
      );
    }
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagPattern.test(tag)) return fail(`"${tag.slice(0, 80)}" is not a tag (letters, digits, \`_\`, \`.\` and \`-\`, at most 128)`);
  }
  const parts = rest.split('/');
  const first = parts[0] ?? '';
  // docker's rule: the first part names a registry when it has a `.` or `:`, is `localhost`, or has upper case.
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  let registry = hasRegistry ? first : 'docker.io';
  if (!domainPattern.test(registry)) return fail(`"${registry.slice(0, 80)}" is not a registry host`);
  if (registry === 'index.docker.io' || registry === 'registry-1.docker.io') registry = 'docker.io';
  const path = hasRegistry ? parts.slice(1) : parts;
  if (registry === 'docker.io' && path.length === 1) path.unshift('library');
  const bad = path.find((part) => !pathComponentPattern.test(part));
  if (bad !== undefined) {
    return fail(
      bad === ''
        ? 'has an empty path component'
        : `"${bad.slice(0, 80)}" is not a repository path component (lower case letters and digits, joined by \`.\`, \`_\`, \`__\` or \`-\`)`,
    );
  }
  const repository = path.join('/');
  if (repository.length > maxNameLength) return fail(`its repository name is longer than ${maxNameLength} characters`);
  return { ok: true, ref: { registry, repository, ...(tag !== undefined && { tag }), ...(digest !== undefined && { digest }) } };
}

/** `registry/repository[:tag][@digest]`, with the registry always written out. */
export function formatReference(ref: ImageReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}

/** The host serving a registry's API: Docker Hub's name differs from its API host. */
export const apiHost = (registry: string): string => (registry === 'docker.io' ? 'registry-1.docker.io' : registry);
