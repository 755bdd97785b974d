// The container image from the repository's Dockerfile, built and run with podman/buildah from
// Debian's packages (shared/reference/notes/real-tools.md §3). No registry is reachable, so the
// base is built locally from the host's node (scripts/local-base-image.sh) and passed as
// BASE_IMAGE. The image then runs as a KRM function: plain `podman run`, `KPT_FN_RUNTIME=podman
// kpt fn render`, and `kubectl kustomize --enable-alpha-plugins` through a `docker` → podman shim.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, parse as parseYaml, stringify } from 'yaml';
import {
  changedFiles,
  copyDir,
  describeRun,
  generatedConfigMaps,
  ofKind,
  parseStream,
  readText,
  repoRoot,
  requireBundle,
  requireTool,
  run,
  snapshotDir,
  useTempDirs,
  writeExecutable,
  writeFile,
  type K8sObject,
} from './tools.js';

const image = 'localhost/llsd-render:test';
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const installHint = 'install the Debian packages podman buildah runc, see .ci/run (it also writes the /etc/containers/containers.conf settings podman needs here)';
const buildTimeoutMs = 180_000;

/** podman or buildah on PATH, or an error with the install hint. */
function requireContainerTool(name: 'podman' | 'buildah'): string {
  const found = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name)).find((path) => existsSync(path));
  if (!found) throw new Error(`${name} not found on PATH: ${installHint}`);
  return found;
}

describe('container image (Dockerfile) as a KRM function, with podman', () => {
  const tmp = useTempDirs();
  let podman = '';
  let baseImage = '';

  // (a) The local base (reused when it exists for the host's node version), then the app image,
  // always rebuilt so it holds the current bundle. The build context is a temporary directory with
  // just the Dockerfile and the bundle, so node_modules is never sent to the builder.
  beforeAll(() => {
    podman = requireContainerTool('podman');
    requireContainerTool('buildah');
    const bundle = requireBundle();

    const base = run(join(repoRoot, 'scripts', 'local-base-image.sh'), [], { timeoutMs: buildTimeoutMs });
    expect(base.status, `scripts/local-base-image.sh failed (${installHint})\n${describeRun(base)}`).toBe(0);
    baseImage = base.stdout.trim().split('\n').pop() ?? '';
    expect(baseImage).toMatch(/^localhost\/llsd-render-node-base:\d+\.\d+\.\d+$/);

    const context = tmp('llsd-image-');
    mkdirSync(join(context, 'dist'));
    copyFileSync(join(repoRoot, 'Dockerfile'), join(context, 'Dockerfile'));
    copyFileSync(bundle, join(context, 'dist', 'llsd-render.js'));
    const build = run(
      podman,
      ['build', '--pull=never', '--build-arg', `BASE_IMAGE=${baseImage}`, '--build-arg', `VERSION=${version}`, '-t', image, context],
      { timeoutMs: buildTimeoutMs },
    );
    expect(build.status, `podman build failed (${installHint})\n${describeRun(build)}`).toBe(0);
  }, buildTimeoutMs * 2);

  it('has the OCI labels and runs as nobody (65534:65534)', () => {
    const inspect = run(podman, ['image', 'inspect', image]);
    expect(inspect.status, describeRun(inspect)).toBe(0);
    const [info] = JSON.parse(inspect.stdout) as Array<{ Config: { User: string; Labels: Record<string, string>; Entrypoint: string[] } }>;
    expect(info?.Config.User).toBe('65534:65534');
    expect(info?.Config.Labels).toMatchObject({
      'org.opencontainers.image.title': 'llsd-render',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'Apache-2.0',
    });
    expect(info?.Config.Labels['org.opencontainers.image.source']).toMatch(/^https:\/\//);
    expect(info?.Config.Labels['org.opencontainers.image.description']).toMatch(/LlamaStackDistribution/);
    expect(info?.Config.Entrypoint[0]).toBe('node');

    const id = run(podman, ['run', '--rm', '--network', 'none', '--entrypoint', 'node', image, '-p', 'process.getuid() + ":" + process.getgid()']);
    expect(id.status, describeRun(id)).toBe(0);
    expect(id.stdout.trim()).toBe('65534:65534');
  });

  it('renders a ResourceList on stdin with no network, as nobody', () => {
    const llsd = parseYaml(readText(join(repoRoot, 'examples', 'kpt', 'apps', 'llsd.yaml'))) as K8sObject;
    const input = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [llsd] });
    const result = run(podman, ['run', '--rm', '-i', '--network', 'none', '--user', 'nobody', '--security-opt=no-new-privileges', image], { input });
    expect(result.status, describeRun(result)).toBe(0);
    const output = parseYaml(result.stdout) as { kind: string; items: K8sObject[] };
    expect(output.kind).toBe('ResourceList');
    expect(generatedConfigMaps(output.items, llsd.metadata.name)).toHaveLength(1);
    expect(ofKind(output.items, 'Deployment').map((o) => o.metadata.name)).toEqual([llsd.metadata.name]);
  });

  it('ships the code cache made at build time, and the function reads it (as nobody, with no network)', () => {
    const llsd = parseYaml(readText(join(repoRoot, 'examples', 'kpt', 'apps', 'llsd.yaml'))) as K8sObject;
    const input = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [llsd] });
    const result = run(podman, ['run', '--rm', '-i', '--network', 'none', '--user', 'nobody', '-e', 'LLSD_RENDER_DEBUG=1', image], { input });
    expect(result.status, describeRun(result)).toBe(0);
    expect(result.stderr).toMatch(/^llsd-render: code cache: read \/usr\/local\/lib\/llsd-render\/code-cache\/code-[0-9a-f]{16}-nodev[\d.]+-\w+\.v8cache$/m);
    expect(result.stderr).not.toMatch(/code cache: (refused|wrote|cannot)/);
  });

  it('runs under KPT_FN_RUNTIME=podman kpt fn render; a second render changes nothing', () => {
    const kpt = requireTool('kpt');
    const pkg = copyDir(join(repoRoot, 'examples', 'kpt'), join(tmp('llsd-kpt-podman-'), 'pkg'));
    const kptfile = parseDocument(readText(join(pkg, 'Kptfile')));
    expect(kptfile.getIn(['pipeline', 'mutators', 0, 'exec'])).toBeDefined();
    kptfile.setIn(['pipeline', 'mutators', 0], kptfile.createNode({ image }));
    writeFile(join(pkg, 'Kptfile'), kptfile.toString());
    const generated = join(pkg, 'apps', 'chat.generated.yaml');
    expect(existsSync(generated)).toBe(false);

    const render = () => run(kpt, ['fn', 'render', pkg, '--image-pull-policy', 'never'], { env: { KPT_FN_RUNTIME: 'podman' }, timeoutMs: 60_000 });
    const first = render();
    expect(first.status, describeRun(first)).toBe(0);
    const objects = parseStream(readText(generated));
    expect(generatedConfigMaps(objects, 'chat')).toHaveLength(1);
    expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);

    const before = snapshotDir(pkg);
    const second = render();
    expect(second.status, describeRun(second)).toBe(0);
    expect(changedFiles(before, snapshotDir(pkg))).toEqual([]);
  }, 120_000);

  it('runs under kubectl kustomize --enable-alpha-plugins with a docker → podman shim', () => {
    const kubectl = requireTool('kubectl');
    const root = tmp('llsd-kubectl-podman-');
    const dir = copyDir(join(repoRoot, 'examples', 'kustomize', 'transformer'), join(root, 'transformer'));
    const fnFile = join(dir, 'render-config.yaml');
    const doc = parseDocument(readText(fnFile));
    expect(doc.getIn(['metadata', 'annotations', 'config.kubernetes.io/function'])).toMatch(/^exec:\n/);
    doc.setIn(['metadata', 'annotations', 'config.kubernetes.io/function'], `container:\n  image: ${image}\n`);
    writeFile(fnFile, doc.toString());
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeExecutable(bin, 'docker', '#!/bin/sh\nexec podman "$@"\n');

    const result = run(kubectl, ['kustomize', '--enable-alpha-plugins', dir], { env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }, timeoutMs: 60_000 });
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
    expect(generatedConfigMaps(objects, 'chat')).toHaveLength(1);
    expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);
    expect(ofKind(objects, 'Service').map((o) => o.metadata.name)).toEqual(['chat-service']);
  }, 120_000);
});
