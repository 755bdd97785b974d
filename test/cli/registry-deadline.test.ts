// The overall deadline of an image lookup, through the bundle (issue 29, R1): a registry that
// answers at once and then sends its manifest a byte every 300 ms, each pause inside
// `timeoutSeconds`, held `build` forever. With `registry.deadlineSeconds` from a RenderConfig the
// render ends, with an error at `spec.distribution.image` naming the image and the deadline.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBundle, tempDir } from './run.js';

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** A "registry" whose every answer is 200 and a body that never ends, one byte every 300 ms. */
async function drippingRegistry(): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' });
    if (req.method === 'HEAD') return void res.end();
    const timer = setInterval(() => res.write('{'), 300);
    res.on('close', () => clearInterval(timer));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The bundle run asynchronously (the registry lives in this process). */
function build(dir: string): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH ?? '', HOME: dir };
    const child = spawn(process.execPath, [requireBundle(), 'build', dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('registry.deadlineSeconds', () => {
  it('ends the lookup of a registry that drips inside timeoutSeconds, with an error naming the image and the deadline', async () => {
    const host = await drippingRegistry();
    const image = `${host}/demo/stack:1.0`;
    const dir = tempDir();
    writeFileSync(
      join(dir, 'llsd.yaml'),
      'apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata:\n  name: custom\n  namespace: ai\n' +
        `spec:\n  distribution:\n    image: ${image}\n`,
    );
    writeFileSync(
      join(dir, 'render-config.yaml'),
      'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  registry:\n' +
        `    insecure: ["${host}"]\n    cacheDir: ${join(dir, 'cache')}\n    timeoutSeconds: 1\n    deadlineSeconds: 2\n`,
    );
    const r = await build(dir);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `spec.distribution.image: reading the labels of "${image}" took longer than the deadline of 2 s (${host} was still sending the manifest of ` +
        'demo/stack:1.0 when the deadline passed (RenderConfig `registry.deadlineSeconds`))',
    );
    expect(r.ms).toBeLessThan(15_000);
  }, 30_000);
});
