// The Argo CD Config Management Plugin contract, emulated: run the generate and discover commands
// of examples/argocd/plugin.yaml the way argocd-cmp-server does (command + args, in the app
// source directory, with ARGOCD_APP_* and ARGOCD_ENV_* variables), with `llsd-render` on PATH.
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  annotationsOf,
  copyDir,
  describeRun,
  generatedConfigMaps,
  ofKind,
  parseStream,
  readText,
  repoRoot,
  requireBundle,
  run,
  useTempDirs,
  writeFile,
  type K8sObject,
  type RunResult,
} from './tools.js';

const exampleDir = join(repoRoot, 'examples', 'argocd');
const appDir = join(exampleDir, 'app');

interface Command {
  command: string[];
  args?: string[];
}
interface Plugin {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { version?: string; generate: Command; discover?: { find?: { command?: string[] | Command } } };
}

const plugin = parseYaml(readText(join(exampleDir, 'plugin.yaml'))) as Plugin;
const application = parseYaml(readText(join(exampleDir, 'application.yaml'))) as {
  spec: { source: { path: string; plugin: { name: string; env: Array<{ name: string; value: string }> } } };
};
const llsdConfigValue = application.spec.source.plugin.env.find((e) => e.name === 'LLSD_CONFIG')?.value;
const ogxAppDir = join(exampleDir, 'ogx-app');
const ogxApplication = parseYaml(readText(join(exampleDir, 'ogx-application.yaml'))) as typeof application;

/** argocd-cmp-server runs `command[0]` with `command[1:] + args`. */
function argvOf(c: Command | string[]): string[] {
  const command = Array.isArray(c) ? c : [...c.command, ...(c.args ?? [])];
  expect(command.length).toBeGreaterThan(0);
  return command;
}

describe('Argo CD plugin (examples/argocd/plugin.yaml)', () => {
  const tmp = useTempDirs();
  beforeEach(() => {
    requireBundle();
  });

  /** A bin dir with `llsd-render` → the bundle, as the sidecar image has it on PATH. */
  function llsdRenderOnPath(root: string): string {
    const dir = join(root, 'bin');
    mkdirSync(dir);
    symlinkSync(requireBundle(), join(dir, 'llsd-render'));
    return dir;
  }

  /** The sidecar's environment: a small PATH with node and llsd-render, plus the build variables. */
  function pluginEnv(binDir: string, extra: Record<string, string>): Record<string, string> {
    return {
      PATH: [binDir, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: dirname(binDir),
      ARGOCD_APP_NAME: 'llama-chat',
      ARGOCD_APP_NAMESPACE: 'llama',
      ARGOCD_APP_PROJECT_NAME: 'default',
      ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
      ...extra,
    };
  }

  function generate(cwd: string, binDir: string, extra: Record<string, string> = {}): RunResult {
    const [command, ...args] = argvOf(plugin.spec.generate);
    return run(command as string, args, { cwd, baseEnv: pluginEnv(binDir, extra) });
  }

  function discover(cwd: string, binDir: string): RunResult {
    const find = plugin.spec.discover?.find?.command;
    expect(find, 'plugin.yaml spec.discover.find.command').toBeDefined();
    const [command, ...args] = argvOf(find as string[] | Command);
    return run(command as string, args, { cwd, baseEnv: pluginEnv(binDir, {}) });
  }

  /** A temporary "repository" holding a copy of the app dir. */
  function checkout(): { root: string; app: string; binDir: string } {
    const root = tmp('llsd-argocd-');
    return { root, app: copyDir(appDir, join(root, 'app')), binDir: llsdRenderOnPath(root) };
  }

  function expectManifests(stdout: string): K8sObject[] {
    const objects = parseStream(stdout);
    expect(generatedConfigMaps(objects, 'chat')).toHaveLength(1);
    expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);
    expect(ofKind(objects, 'Service').map((o) => o.metadata.name)).toEqual(['chat-service']);
    expect(ofKind(objects, 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['chat-sa']);
    expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
    expect(ofKind(objects, 'RenderConfig')).toEqual([]);
    expect(objects.filter((o) => annotationsOf(o)['config.kubernetes.io/local-config'] !== undefined)).toEqual([]);
    for (const object of objects) {
      expect(Object.keys(annotationsOf(object)).filter((k) => k.includes('config.kubernetes.io/'))).toEqual([]);
    }
    return objects;
  }

  const syncOptions = (objects: K8sObject[]) => annotationsOf(generatedConfigMaps(objects, 'chat')[0] as K8sObject)['argocd.argoproj.io/sync-options'];

  it('is a ConfigManagementPlugin that the example Application names and configures', () => {
    expect(plugin.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(plugin.kind).toBe('ConfigManagementPlugin');
    expect(plugin.spec.generate.command).toEqual(['sh', '-c']);
    // With spec.version set, Argo CD knows the plugin as <name>-<version>.
    const expectedName = plugin.spec.version ? `${plugin.metadata.name}-${plugin.spec.version}` : plugin.metadata.name;
    expect(application.spec.source.plugin.name).toBe(expectedName);
    expect(llsdConfigValue).toBe('render-config.yaml');
    expect(join(repoRoot, application.spec.source.path)).toBe(appDir);
    expect(parseStream(readText(join(appDir, llsdConfigValue as string))).map((o) => `${o.apiVersion}/${o.kind}`)).toEqual([
      'fn.llamastack.io/v1alpha1/RenderConfig',
    ]);
  });

  // `build .` also applies a RenderConfig found among the app's files, so here the variable is
  // redundant; the next test shows that the variable itself reaches the renderer.
  it('generates a plain manifest stream of what the cluster should get, as the example Application configures it', () => {
    const { app, binDir } = checkout();
    const result = generate(app, binDir, { ARGOCD_ENV_LLSD_CONFIG: llsdConfigValue as string });
    expect(result.status, describeRun(result)).toBe(0);
    const objects = expectManifests(result.stdout);
    expect(objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']);
    // render-config.yaml says gitopsAnnotations: false.
    expect(syncOptions(objects)).toBeUndefined();
    expect(result.stdout).not.toContain('kind: ResourceList');
  });

  it('passes ARGOCD_ENV_LLSD_CONFIG to `llsd-render build --config` (a RenderConfig kept outside the app dir)', () => {
    const { root, app, binDir } = checkout();
    // Out of the scanned directory, the RenderConfig applies only through the variable.
    renameSync(join(app, 'render-config.yaml'), join(root, 'shared render config.yaml'));

    const without = generate(app, binDir);
    expect(without.status, describeRun(without)).toBe(0);
    expect(syncOptions(expectManifests(without.stdout))).toBe('PruneLast=true');

    const withConfig = generate(app, binDir, { ARGOCD_ENV_LLSD_CONFIG: '../shared render config.yaml' });
    expect(withConfig.status, describeRun(withConfig)).toBe(0);
    expect(syncOptions(expectManifests(withConfig.stdout))).toBeUndefined();

    const missing = generate(app, binDir, { ARGOCD_ENV_LLSD_CONFIG: 'no-such-config.yaml' });
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('no-such-config.yaml');
  });

  it('fails with a message on stderr when the app dir has nothing to render (Argo CD would prune everything)', () => {
    const { root, binDir } = checkout();
    const empty = join(root, 'empty-app');
    mkdirSync(empty);
    // Only a RenderConfig: no LLSD and no object to apply.
    writeFile(join(empty, 'render-config.yaml'), readText(join(appDir, 'render-config.yaml')));

    const result = generate(empty, binDir, { ARGOCD_ENV_LLSD_CONFIG: 'render-config.yaml' });
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/nothing to render/);
  });

  it('fails on an invalid LLSD with our one-line error on stderr and nothing on stdout', () => {
    const { app, binDir } = checkout();
    writeFile(join(app, 'llsd.yaml'), readText(join(app, 'llsd.yaml')).replace('name: starter', 'name: nope'));
    const result = generate(app, binDir, { ARGOCD_ENV_LLSD_CONFIG: 'render-config.yaml' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^llsd\.yaml:\d+: llama\/chat: spec\.distribution\.name: unknown distribution "nope"/m);
  });

  it('discovers a directory holding an LLSD and no other', () => {
    const { root, app, binDir } = checkout();
    const found = discover(app, binDir);
    expect(found.status, describeRun(found)).toBe(0);
    expect(found.stdout.trim()).toBe('./llsd.yaml');

    const other = join(root, 'other-app');
    mkdirSync(other);
    writeFile(
      join(other, 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  # kind: LlamaStackDistribution in a comment does not count\ndata: {}\n',
    );
    const notFound = discover(other, binDir);
    expect(notFound.status).toBe(0);
    expect(notFound.stdout).toBe('');
  });

  // Issue 18: discovery missed forms `build` renders.
  it('discovers the kind quoted, with a trailing comment and in flow style, as build reads it', () => {
    const { root, binDir } = checkout();
    const forms = [
      'apiVersion: llamastack.io/v1alpha2\nkind: "LlamaStackDistribution"\nmetadata: {name: a}\n',
      "apiVersion: ogx.io/v1beta1\nkind: 'OGXServer'   # the server\nmetadata: {name: a}\n",
      '{apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistribution, metadata: {name: a}}\n',
      '- {apiVersion: ogx.io/v1beta1, "kind": OGXServer}\n',
    ];
    forms.forEach((text, i) => {
      const dir = join(root, `form-${i}`);
      mkdirSync(dir);
      writeFile(join(dir, 'x.yaml'), text);
      const found = discover(dir, binDir);
      expect(found.stdout.trim(), text).toBe('./x.yaml');
    });
    for (const text of [
      'kind: ConfigMap  # not a LlamaStackDistribution\n',
      'kindly: LlamaStackDistribution\n',
      'kind: LlamaStackDistributionList\n',
      'kind: ConfigMap\ndata:\n  llsd.yaml: |\n    kind: LlamaStackDistribution\n',
    ]) {
      const dir = join(root, `not-${forms.length}-${text.length}`);
      mkdirSync(dir);
      writeFile(join(dir, 'x.yaml'), text);
      expect(discover(dir, binDir).stdout, text).toBe('');
    }
  });

  it('has a repo-server sidecar patch that runs argocd-cmp-server as user 999 with plugin.yaml mounted', () => {
    const patch = parseYaml(readText(join(exampleDir, 'repo-server-patch.yaml'))) as K8sObject & {
      spec: { template: { spec: { containers: Array<Record<string, unknown>>; volumes: Array<{ name: string; configMap?: { name: string } }> } } };
    };
    expect(`${patch.kind}/${patch.metadata.name}`).toBe('Deployment/argocd-repo-server');
    const [sidecar] = patch.spec.template.spec.containers;
    expect(sidecar?.command).toEqual(['/var/run/argocd/argocd-cmp-server']);
    expect((sidecar?.securityContext as { runAsUser?: number }).runAsUser).toBe(999);
    const mounts = sidecar?.volumeMounts as Array<{ mountPath: string; name: string; subPath?: string }>;
    const pluginMount = mounts.find((m) => m.mountPath === '/home/argocd/cmp-server/config/plugin.yaml');
    expect(pluginMount?.subPath).toBe('plugin.yaml');
    expect(mounts.map((m) => m.mountPath)).toEqual(expect.arrayContaining(['/var/run/argocd', '/home/argocd/cmp-server/plugins', '/tmp']));
    // Volumes the patch adds itself (var-files and plugins belong to the stock repo-server).
    const declared = new Set(patch.spec.template.spec.volumes.map((v) => v.name));
    for (const mount of mounts.filter((m) => m.name !== 'var-files' && m.name !== 'plugins')) expect(declared).toContain(mount.name);
  });
});

// The same plugin over an app directory holding an OGXServer (ogx.io/v1beta1).
describe('Argo CD plugin over an OGXServer app (examples/argocd/ogx-app, ogx-application.yaml)', () => {
  const tmp = useTempDirs();
  beforeEach(() => {
    requireBundle();
  });

  function checkout(): { app: string; binDir: string } {
    const root = tmp('llsd-argocd-ogx-');
    const binDir = join(root, 'bin');
    mkdirSync(binDir);
    symlinkSync(requireBundle(), join(binDir, 'llsd-render'));
    return { app: copyDir(ogxAppDir, join(root, 'app')), binDir };
  }

  const env = (binDir: string, extra: Record<string, string> = {}) => ({
    PATH: [binDir, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: dirname(binDir),
    ARGOCD_APP_NAME: 'llama-assistant',
    ARGOCD_APP_NAMESPACE: 'llama',
    ...extra,
  });

  function runCommand(c: Command | string[], cwd: string, binDir: string, extra: Record<string, string> = {}): RunResult {
    const [command, ...args] = argvOf(c);
    return run(command as string, args, { cwd, baseEnv: env(binDir, extra) });
  }

  it('is an Application for the same plugin, with the same LLSD_CONFIG, pointing at ogx-app', () => {
    expect(ogxApplication.spec.source.plugin.name).toBe(application.spec.source.plugin.name);
    expect(ogxApplication.spec.source.plugin.env).toEqual(application.spec.source.plugin.env);
    expect(join(repoRoot, ogxApplication.spec.source.path)).toBe(ogxAppDir);
  });

  it('generates the objects of the OGX operator, never the OGXServer or the RenderConfig, with the RenderConfig applied', () => {
    const { app, binDir } = checkout();
    const result = runCommand(plugin.spec.generate, app, binDir, { ARGOCD_ENV_LLSD_CONFIG: llsdConfigValue as string });
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    // monitoringCrds: false in render-config.yaml: no ServiceMonitor or PrometheusRule.
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
      [
        `ConfigMap/${generatedConfigMaps(objects, 'assistant')[0]?.metadata.name}`,
        'Deployment/assistant',
        'NetworkPolicy/assistant-network-policy',
        'Service/assistant-service',
        'ServiceAccount/assistant-sa',
      ].sort(),
    );
    expect(generatedConfigMaps(objects, 'assistant')).toHaveLength(1);
    for (const object of objects) {
      expect(annotationsOf(object)['llamastack.io/generated-from']).toBe('llama/assistant');
      expect(Object.keys(annotationsOf(object)).filter((k) => k.includes('config.kubernetes.io/'))).toEqual([]);
    }
    // gitopsAnnotations: false.
    expect(annotationsOf(generatedConfigMaps(objects, 'assistant')[0] as K8sObject)['argocd.argoproj.io/sync-options']).toBeUndefined();
  });

  it('fails on an invalid OGXServer with our one-line error on stderr and nothing on stdout', () => {
    const { app, binDir } = checkout();
    writeFile(join(app, 'ogxserver.yaml'), readText(join(app, 'ogxserver.yaml')).replace('name: starter', 'name: nope'));
    const result = runCommand(plugin.spec.generate, app, binDir, { ARGOCD_ENV_LLSD_CONFIG: llsdConfigValue as string });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^ogxserver\.yaml:\d+: llama\/assistant: spec\.distribution\.name: unknown distribution "nope"/m);
  });

  it('discovers a directory holding an OGXServer', () => {
    const { app, binDir } = checkout();
    const found = runCommand(plugin.spec.discover?.find?.command as string[] | Command, app, binDir);
    expect(found.status, describeRun(found)).toBe(0);
    expect(found.stdout.trim()).toBe('./ogxserver.yaml');
  });
});
