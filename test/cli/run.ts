// Helpers for the command-line tests: they run the BUILT bundle (dist/llsd-render.js) as a real
// process, with explicit arguments and stdin, the way kpt, kustomize, Argo CD and CI run it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The bundle under test; LLSD_RENDER_BUNDLE points the tests at another build of it. */
export const bundlePath = process.env.LLSD_RENDER_BUNDLE ?? join(repoRoot, 'dist', 'llsd-render.js');
export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const quickstartPath = join(repoRoot, 'examples', 'quickstart', 'llsd.yaml');

export const LLSD_API_VERSION = 'llamastack.io/v1alpha2';
export const LLSD_KIND = 'LlamaStackDistribution';
export const GENERATED_FROM = 'llamastack.io/generated-from';
export const LOCAL_CONFIG = 'config.kubernetes.io/local-config';
export const ARGO_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
export const FLUX_SUBSTITUTE = 'kustomize.toolkit.fluxcd.io/substitute';

/** Fails the calling test with a clear instruction when the bundle has not been built. */
export function requireBundle(): string {
  if (!existsSync(bundlePath)) {
    throw new Error(`${bundlePath} does not exist: run \`npm run build\` before the CLI tests`);
  }
  return bundlePath;
}

export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Text on stdin; by default stdin is empty (and closed). */
  input?: string;
  cwd?: string;
  /** Another copy of the bundle (for the "copied alone" test). */
  bundle?: string;
  env?: NodeJS.ProcessEnv;
}

/** The environment of a user's shell: no debug switch that would change what is printed. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.LLSD_RENDER_DEBUG;
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs `node <bundle> ...args` and returns its exit status and output. */
export function run(args: readonly string[], options: RunOptions = {}): RunResult {
  const bundle = options.bundle ?? requireBundle();
  const result = spawnSync(process.execPath, [bundle, ...args], {
    input: options.input ?? '',
    cwd: options.cwd ?? repoRoot,
    env: cleanEnv(options.env),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  // An input over the size limit is read only up to the limit: the rest meets a closed pipe.
  const stoppedReading = (result.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' && result.status !== null;
  if (result.error && !stoppedReading) throw result.error;
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** Runs an executable file directly (through its `#!` line), not through `node`. */
export function runFile(file: string, args: readonly string[], options: { cwd?: string; input?: string } = {}): RunResult {
  const result = spawnSync(file, [...args], {
    input: options.input ?? '',
    cwd: options.cwd ?? dirname(file),
    // `#!/usr/bin/env node` finds node on the PATH: put the node running the tests first.
    env: cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test file. */
export function tempDir(prefix = 'llsd-render-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Writes `files` (relative path → text) under `dir`, in the order given. */
export function writeTree(dir: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

export const readFixture = (name: string): string => readFileSync(join(fixturesDir, name), 'utf8');
export const copyFixture = (name: string, to: string): void => {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(join(fixturesDir, name), to);
};
export const quickstartText = (): string => readFileSync(quickstartPath, 'utf8');

/** A YAML document with its leading comment lines and `---` removed, for embedding as a list item. */
function stripLeading(doc: string): string {
  const lines = doc.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && (/^\s*#/.test(lines[0] ?? '') || /^\s*$/.test(lines[0] ?? '') || lines[0] === '---')) lines.shift();
  return lines.join('\n').replace(/\s+$/, '');
}

/** Indents a block YAML document into a sequence entry at `indent` spaces. */
export function asListItem(doc: string, indent = 2): string {
  const pad = ' '.repeat(indent);
  return stripLeading(doc)
    .split('\n')
    .map((line, i) => (i === 0 ? `${pad}- ${line}` : line === '' ? '' : `${pad}  ${line}`))
    .join('\n');
}

/** A `config.kubernetes.io/v1` ResourceList as YAML text, with the given documents as items. */
export function resourceList(items: readonly string[], functionConfig?: string): string {
  let text = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';
  text += items.map((item) => `${asListItem(item)}\n`).join('');
  if (functionConfig !== undefined) {
    text += `functionConfig:\n${stripLeading(functionConfig)
      .split('\n')
      .map((line) => (line === '' ? '' : `  ${line}`))
      .join('\n')}\n`;
  }
  return text;
}

/** Adds kpt's annotations (path, index, id) to a block YAML document that has `metadata:` with `name:`. */
export function withKptAnnotations(doc: string, path: string, index: number, id: number): string {
  const text = stripLeading(doc);
  const annotations = [
    `    config.kubernetes.io/index: '${index}'`,
    `    internal.config.kubernetes.io/path: '${path}'`,
    `    config.k8s.io/id: '${id}'`,
  ].join('\n');
  if (/^  annotations:\n/m.test(text)) return text.replace(/^  annotations:\n/m, `  annotations:\n${annotations}\n`);
  return text.replace(/^metadata:\n/m, `metadata:\n  annotations:\n${annotations}\n`);
}

export type Plain = Record<string, unknown>;

export interface KrmObject extends Plain {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
}

export interface WireResult {
  severity: 'error' | 'warning' | 'info';
  message: string;
  resourceRef?: { apiVersion: string; kind: string; name: string; namespace?: string };
  field?: { path: string };
  file?: { path: string; index?: number };
}

export interface ParsedList {
  apiVersion: unknown;
  kind: unknown;
  items: KrmObject[];
  results: WireResult[];
}

/** Parses a ResourceList printed on stdout; fails the test if it is not one (single YAML document). */
export function parseResourceList(text: string, version: '1.1' | '1.2' = '1.2'): ParsedList {
  const docs = parseAllDocuments(text, { version, uniqueKeys: true });
  if (!Array.isArray(docs)) throw new Error('stdout is empty, not a ResourceList');
  expect(docs.length, 'stdout holds exactly one YAML document').toBe(1);
  const doc = docs[0];
  if (!doc) throw new Error('no document on stdout');
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  const value = doc.toJS({ maxAliasCount: 100 }) as Plain;
  expect(value.apiVersion).toBe('config.kubernetes.io/v1');
  expect(value.kind).toBe('ResourceList');
  expect(Array.isArray(value.items)).toBe(true);
  return {
    apiVersion: value.apiVersion,
    kind: value.kind,
    items: value.items as KrmObject[],
    results: (value.results ?? []) as WireResult[],
  };
}

/** Parses the plain value of one YAML text (input side), with the same schema as the output side. */
export function parsePlain(text: string, version: '1.1' | '1.2' = '1.2'): unknown {
  const doc = parseDocument(text, { version, uniqueKeys: true });
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  return doc.toJS();
}

/** Parses a multi-document stream printed by `build`: the non-empty documents, in order. */
export function parseStream(text: string): KrmObject[] {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  return docs
    .map((doc) => {
      expect(doc.errors.map((e) => e.message)).toEqual([]);
      return doc.toJS() as KrmObject | null;
    })
    .filter((v): v is KrmObject => v !== null);
}

/** The raw text of each document of a stream printed by `build` (split on `---` lines). */
export function streamDocuments(text: string): string[] {
  if (text === '') return [];
  return text.split(/^---\n/m).filter((doc) => doc.trim() !== '');
}

export const ref = (o: KrmObject): string => `${o.kind}/${o.metadata.name}`;
export const annotationsOf = (o: KrmObject): Record<string, string> => o.metadata.annotations ?? {};
export const isGenerated = (o: KrmObject): boolean => annotationsOf(o)[GENERATED_FROM] !== undefined;

/** No stack trace, no crash report: what a user sees for a bad input. */
export function expectNoCrash(r: RunResult): void {
  expect(r.signal, 'the process was not killed').toBeNull();
  expect(r.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toContain('TypeError');
  expect(r.stderr).not.toContain('internal error');
}

/** stderr as lines, without the final newline. */
export const stderrLines = (r: RunResult): string[] => r.stderr.split('\n').filter((line) => line !== '');

/** The 1-based line of the first line of `text` that contains `marker` (after `after` occurrences). */
export function lineOfMarker(text: string, marker: string, occurrence = 1): number {
  let seen = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').includes(marker)) {
      seen++;
      if (seen === occurrence) return i + 1;
    }
  }
  throw new Error(`marker ${JSON.stringify(marker)} (occurrence ${occurrence}) not found`);
}

/** How often `needle` occurs in `haystack`. */
export const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

export const packageVersion = (): string => (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** A value computed on first use and then shared (one process run for several tests). */
export function lazy<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: make() };
    return value.v;
  };
}

/**
 * The quickstart refers to the Secret `vllm-credentials`, which tests often leave out: with the
 * default secret policy (warn) stderr then holds exactly that one warning.
 */
export function expectOnlyMissingSecretWarning(r: RunResult): void {
  expect(r.stderr).toMatch(
    /^[^\n]*: warning: refers to the Secret "vllm-credentials", which is not in the input \(as a Secret, SealedSecret or ExternalSecret\); the pod will not start until it exists in namespace llama \(set `secretPolicy: strict` to make this an error, or `off` to skip the check\) \[secret-not-in-input\]\n$/,
  );
}
