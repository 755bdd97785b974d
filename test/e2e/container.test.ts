// The container image from the repository's Dockerfile, built and run with podman/buildah from
// Debian's packages (with the containers.conf settings of docs/development.md). No registry is reachable, so the
// base is built locally from the npm registry's Node 24 binary (scripts/local-base-image.sh) and passed as
// BASE_IMAGE. The image then runs as a KRM function: plain `podman run`, `KPT_FN_RUNTIME=podman
// kpt fn render`, and `kubectl kustomize --enable-alpha-plugins` through a `docker` → podman shim.
// The same image then serves as the Argo CD plugin sidecar of examples/argocd: the plugin's
// discover and generate commands run in it as argocd-cmp-server runs them.
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
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
import { imageName, packageVersion } from './image.js';

// The documented name, so the examples that name the image run as written.
const image = imageName;
const version = packageVersion;
const installHint =
  'run `npm run test:prereqs` (as root it installs the Debian packages podman buildah runc and writes the /etc/containers/containers.conf settings podman ' +
    'needs here)';
const buildTimeoutMs = 180_000;

/** podman or buildah on PATH, or an error with the install hint. */
function requireContainerTool(name: 'podman' | 'buildah'): string {
  const found = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name)).find((path) => existsSync(path));
  if (!found) throw new Error(`${name} not found on PATH: ${installHint}`);
  return found;
}

const tmp = useTempDirs();
let podman = '';
let baseImage = '';

// One image for every describe block of this file (vitest runs test files in parallel, so a
// second file building the same tag would race with this one).
describe('container image (Dockerfile)', () => {
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
    expect(baseImage).toMatch(/^localhost\/llsd-render-node-base:\d+\.\d+\.\d+-[0-9a-f]{8}$/);

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

  describe('as a KRM function, with podman', () => {

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
      expect(result.stderr).toMatch(
        /^llsd-render: code cache: read \/usr\/local\/lib\/llsd-render\/code-cache\/code-[0-9a-f]{16}-\d+-\d+-nodev[\d.]+-\w+\.v8cache$/m,
      );
      expect(result.stderr).not.toMatch(/code cache: (refused|wrote|cannot)/);
    });

    it('on its Node 24, a damaged copy of the code cache (a byte flipped at 100, 300000, 800000, the last) renders, and is written again (attacker round 6: ' +
      'SIGSEGV)', () => {
      const llsd = parseYaml(readText(join(repoRoot, 'examples', 'kpt', 'apps', 'llsd.yaml'))) as K8sObject;
      const input = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [llsd] });
      // In the container, as nobody, with node alone (the image need not have a shell): copies the
      // image's cache to /tmp/c, damages it, renders with it, renders again (which reads the cache
      // the first run wrote), and reports each pair of runs.
      const script = `
        const fs = require('node:fs'); const { spawnSync } = require('node:child_process');
        const from = '/usr/local/lib/llsd-render/code-cache'; const name = fs.readdirSync(from).find((f) => f.endsWith('.v8cache'));
        const good = fs.readFileSync(from + '/' + name); fs.mkdirSync('/tmp/c');
        const runs = [100, 300000, 800000, good.length - 1].map((offset) => {
          const bytes = Buffer.from(good); bytes[offset] ^= 0xff; fs.writeFileSync('/tmp/c/' + name, bytes);
          const env = { ...process.env, LLSD_RENDER_CODE_CACHE: '/tmp/c', LLSD_RENDER_DEBUG: '1' };
          const bundle = '/usr/local/lib/llsd-render/llsd-render.js';
          const [r, next] = [1, 2].map(() => spawnSync(process.execPath, [bundle], { input: process.env.INPUT, encoding: 'utf8', env }));
          const cache = (run) => run.stderr.split('\\n').filter((l) => l.includes('code cache')).map((l) => l.slice(0, l.lastIndexOf(' /')));
          const resourceList = r.stdout.startsWith('apiVersion: config.kubernetes.io/v1\\nkind: ResourceList');
          return { offset, status: r.status, signal: r.signal, resourceList, cache: cache(r), next: cache(next), same: next.stdout === r.stdout };
        });
        process.stdout.write(JSON.stringify({ size: good.length, runs }));`;
      const result = run(podman, ['run', '--rm', '--network', 'none', '--user', 'nobody', '-e', `INPUT=${input}`, '--entrypoint', 'node', image, '-e', script]);
      expect(result.status, describeRun(result)).toBe(0);
      const { size, runs } = JSON.parse(result.stdout) as { size: number; runs: unknown[] };
      expect(size).toBeGreaterThan(800_000);
      const notRead = 'llsd-render: code cache: not read (damaged: its checksum does not match), to be written again:';
      expect(runs).toEqual(
        [100, 300_000, 800_000, size - 1].map((offset) => ({
          offset,
          status: 0,
          signal: null,
          resourceList: true,
          cache: [notRead, 'llsd-render: code cache: wrote'],
          next: ['llsd-render: code cache: read'],
          same: true,
        })),
      );
    });

    // Node is PID 1 here: SIGTERM during the blocking read of stdin failed it with EINTR, and the
    // run ended as "internal error … Please report this" (attacker round 6, issue 18).
    it('podman kill --signal TERM while it waits for stdin: exit 143, one line on stderr, nothing on stdout', () => {
      const dir = tmp('llsd-sigterm-');
      const name = `llsd-render-sigterm-${process.pid}`;
      // Half a ResourceList, then stdin stays open for 10 s; the container is stopped after 3.
      const script = [
        `(printf 'apiVersion: config.kubernetes.io/v1\\nkind: ResourceList\\nitems:\\n'; sleep 10) | "$1" run --rm -i --name "$2" --network none --user ` +
          `nobody --read-only "$3" >"$4/out" 2>"$4/err" &`,
        'pid=$!',
        'sleep 3',
        '"$1" kill --signal TERM "$2" >/dev/null',
        'wait $pid',
        'echo $? >"$4/status"',
      ].join('\n');
      const result = run('sh', ['-c', script, 'sh', podman, name, image, dir], { timeoutMs: 60_000 });
      expect(result.status, describeRun(result)).toBe(0);
      expect(readText(join(dir, 'err'))).toBe('llsd-render: stopped by SIGTERM while reading the input; nothing was written\n');
      expect(readText(join(dir, 'out'))).toBe('');
      expect(readText(join(dir, 'status')).trim()).toBe('143');
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

      const result = run(kubectl, ['kustomize', '--enable-alpha-plugins', dir], {
        env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
        timeoutMs: 60_000,
      });
      expect(result.status, describeRun(result)).toBe(0);
      const objects = parseStream(result.stdout);
      expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
      expect(generatedConfigMaps(objects, 'chat')).toHaveLength(1);
      expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);
      expect(ofKind(objects, 'Service').map((o) => o.metadata.name)).toEqual(['chat-service']);
    }, 120_000);
  });

  // examples/argocd/repo-server-patch.yaml runs this image as the plugin sidecar: argocd-cmp-server
  // (as user 999, whom the image does not know) runs plugin.yaml's commands in the application's
  // source directory. Emulated with podman: user 999, a read-only root file system and a read-only
  // HOME, the app directory mounted read-only as the working directory, no capabilities, no network.
  describe('as the Argo CD plugin sidecar (examples/argocd/plugin.yaml)', () => {
    const argocd = join(repoRoot, 'examples', 'argocd');
    const plugin = parseYaml(readText(join(argocd, 'plugin.yaml'))) as {
      spec: { generate: { command: string[]; args?: string[] }; discover: { find: { command: string[] } } };
    };
    const application = parseYaml(readText(join(argocd, 'application.yaml'))) as {
      metadata: { name: string };
      spec: { source: { plugin: { env: Array<{ name: string; value: string }> } }; destination: { namespace: string } };
    };
    const pluginEnv = Object.fromEntries(application.spec.source.plugin.env.map((e) => [`ARGOCD_ENV_${e.name}`, e.value]));
    const appEnv = { ARGOCD_APP_NAME: application.metadata.name, ARGOCD_APP_NAMESPACE: application.spec.destination.namespace, ...pluginEnv };

    /** A copy of examples/argocd/app that user 999 can read (temporary directories are 0700). */
    function appCopy(): string {
      const root = tmp('llsd-argocd-image-');
      chmodSync(root, 0o755);
      return copyDir(join(argocd, 'app'), join(root, 'app'));
    }

    /** argocd-cmp-server runs `command[0]` with `command[1:] + args`; here as podman's entrypoint and arguments. */
    function inSidecar(argv: string[], app: string, env: Record<string, string>) {
      const [entrypoint, ...args] = argv;
      expect(entrypoint, 'the plugin command must name a program').toBeDefined();
      const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      return run(
        podman,
        [
          'run', '--rm', '--network', 'none', '--user', '999:999', '--cap-drop', 'ALL', '--security-opt=no-new-privileges',
          '--read-only', '--tmpfs', '/home/argocd:ro', '-e', 'HOME=/home/argocd',
          '-v', `${app}:/tmp/_cmp_server/repo/examples/argocd/app:ro`, '-w', '/tmp/_cmp_server/repo/examples/argocd/app',
          ...envArgs, '--entrypoint', entrypoint as string, image, ...args,
        ],
        { timeoutMs: 60_000 },
      );
    }

    it('has sh, grep, head and env for the plugin commands, in the local base too, and llsd-render on PATH', () => {
      const tools = 'for t in sh grep head env; do command -v "$t"; done';
      const base = run(podman, ['run', '--rm', '--network', 'none', '--user', 'nobody', '--entrypoint', 'sh', baseImage, '-c', tools]);
      expect(base.status, describeRun(base)).toBe(0);
      expect(base.stdout.trim().split('\n')).toEqual(['/usr/bin/sh', '/usr/bin/grep', '/usr/bin/head', '/usr/bin/env']);

      const app = run(podman, [
        'run',
        '--rm',
        '--network',
        'none',
        '--user',
        '999',
        '--entrypoint',
        'sh',
        image,
        '-c',
        `${tools}; command -v llsd-render; llsd-render --version`,
      ]);
      expect(app.status, describeRun(app)).toBe(0);
      expect(app.stdout.trim().split('\n')).toEqual([
        '/usr/bin/sh',
        '/usr/bin/grep',
        '/usr/bin/head',
        '/usr/bin/env',
        '/usr/local/bin/llsd-render',
        expect.stringContaining(version),
      ]);
    });

    it('discover.find.command prints a match for the example app directory', () => {
      const found = inSidecar(plugin.spec.discover.find.command, appCopy(), appEnv);
      expect(found.status, describeRun(found)).toBe(0);
      expect(found.stdout).toBe('./llsd.yaml\n');
    });

    it('generate prints what the host bundle renders for examples/argocd/app, as user 999 with a read-only HOME', () => {
      const app = appCopy();
      const { command, args = [] } = plugin.spec.generate;
      const inImage = inSidecar([...command, ...args], app, { ...appEnv, LLSD_RENDER_DEBUG: '1' });
      expect(inImage.status, describeRun(inImage)).toBe(0);
      // The image's code cache is read; as user 999 nothing may be written (or tried) anywhere.
      expect(inImage.stderr).toMatch(
        /^llsd-render: code cache: read \/usr\/local\/lib\/llsd-render\/code-cache\/code-[0-9a-f]{16}-\d+-\d+-nodev[\d.]+-\w+\.v8cache$/m,
      );
      expect(inImage.stderr).not.toMatch(/code cache: (refused|wrote|cannot)|EROFS|EACCES/);

      const onHost = run(process.execPath, [requireBundle(), 'build', '--config', pluginEnv.ARGOCD_ENV_LLSD_CONFIG as string, '.'], { cwd: app });
      expect(onHost.status, describeRun(onHost)).toBe(0);
      expect(inImage.stdout).toBe(onHost.stdout);
      expect(generatedConfigMaps(parseStream(inImage.stdout), 'chat')).toHaveLength(1);
    });
  });
});
