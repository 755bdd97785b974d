// The config as the server will read it in that pod (docs/validation.md "The config the pod
// reads"), for both front ends: with the Deployment's env (pod-env.ts), older forms converted as the
// release converts them, then the startup rules and the release's own schemas. A violation is a
// result now instead of a crash-looping pod later.
//
// Who wrote a key decides what a finding is: a key the release ignores, or a form it deprecates or
// converts, that the base config holds as written (a vendor's image: the user cannot change it) is
// told once, as an info listing them; the same written by the CR or by llsd-render stays a warning
// or an error.
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { code, listOf, quote } from '../lib/quote.js';
import type { Inventory } from '../krm/inventory.js';
import type { KrmObject } from '../krm/item.js';
import type { WarningCode } from '../krm/result.js';
import { asServerConverts } from './legacy-forms.js';
import { podEnvOf } from './pod-env.js';
import { checkReleaseSchema } from './release-schema.js';
import { releaseName } from '../catalog/versions.js';
import { checkStartupRules, type StartupProblem, type StartupRuleId } from './startup/index.js';
import type { ServerTarget } from './target.js';
import { imageFacts } from './workload.js';

type Path = FieldProblem['path'];

export interface ServedConfig {
  value: Record<string, unknown>;
  /** The ConfigMap of an overrideConfig, when the config is the user's own. */
  fromConfigMap?: string | undefined;
  /** The image's own config.yaml (an OGXServer that generates none): all of it is the base's. */
  fromImage?: true | undefined;
  /** The base config the generated one was laid over: what a finding at an unchanged key blames. */
  base?: Readonly<Record<string, unknown>> | undefined;
}

export interface JudgeInput {
  plan: ServerTarget;
  config: ServedConfig;
  /** The rendered objects: the Deployment's container env is the pod's. */
  objects: readonly KrmObject[];
  inventory?: Inventory | undefined;
  /** The CR field that wrote a config path (a problem is told there). */
  crField: (configPath: string, parsed: Record<string, unknown>) => Path;
  /** The field naming an overrideConfig's ConfigMap. */
  overridePath: Path;
}

/** One finding of either check, before it is told at a CR field. */
interface Finding {
  severity: 'error' | 'warning';
  code?: WarningCode | undefined;
  path: string;
  message: string;
  /** A key the server ignores, or a form it deprecates or converts: the base's own is an info. */
  vendorForm: boolean;
  /** The startup rule broken, and what it said, for a startup finding. */
  rule?: StartupRuleId;
  said?: string;
  /** Variables the pod leaves unset (or may not set) that the finding hangs on. */
  envVars?: readonly string[] | undefined;
}

/** Warnings about a form the server reads anyway (ignores, converts, or reads with a deprecation warning). */
const vendorFormCodes: ReadonlySet<WarningCode> = new Set([
  'deprecated',
  'ignored-by-release',
  'legacy-config-form',
  'provider-setting-not-read',
  'unknown-config-key',
]);

/** A startup finding about a key the server ignores, or a form it deprecates or converts. */
const isVendorForm = (p: StartupProblem): boolean => p.ignoredKey === true || (p.severity === 'warning' && p.code !== undefined && vendorFormCodes.has(p.code));

export function judgeAsServer(input: JudgeInput): FieldProblem[] {
  const { plan, config } = input;
  const { config: parsed, notes } = asServerConverts(config.value, plan.release, plan.catalogRelease);
  const deployment = input.objects.find((o) => o.kind === 'Deployment');
  const env = podEnvOf(deployment, input.inventory, imageFacts(plan).fileSecrets);
  const where = config.fromConfigMap
    ? `the config.yaml of the ConfigMap ${quote(config.fromConfigMap)}`
    : config.fromImage
      ? 'the image\'s own config.yaml'
      : 'the generated config.yaml';
  const pathOf = (configPath: string): Path => (config.fromConfigMap ? input.overridePath : input.crField(configPath, parsed));
  const context = { release: plan.release, catalogRelease: plan.catalogRelease, containerEnv: env };
  const allStartup = checkStartupRules(parsed, { ...context, profile: plan.profile });
  // The release's own schemas: what the startup rules did not already say about a field. A value
  // the server's schema refuses is the reason it stops, whatever a rule says of the same field:
  // the config is validated before any provider is looked up (a substituted 12345 as a
  // provider_id is "not a string", not "provider not found"), so the rule's finding there goes.
  const said = new Set(allStartup.map((p) => p.path));
  const source = config.fromConfigMap ? 'override' : 'generated';
  const schema = checkReleaseSchema(parsed, { ...context, source }).filter((p) => p.kind === 'invalid' || !said.has(p.path));
  const invalid = new Set(schema.filter((p) => p.kind === 'invalid').map((p) => p.path));
  const startup = allStartup.filter((p) => !invalid.has(p.path));
  const checked = plan.catalogRelease === plan.release ? '' : ` (checked against the catalog's ${plan.catalogRelease})`;
  const server = serverOf(plan);
  const findings: Finding[] = [
    ...notes.map((n) => ({
      severity: 'warning' as const,
      code: 'legacy-config-form' as const,
      path: n.path,
      message: `${where}: ${code(n.path)} ${n.message}`,
      vendorForm: true,
    })),
    ...startup.map((p) => ({
      ...p,
      said: p.message,
      message: `${where} would ${startupVerb(p)} ${server}${p.startsAnyway ? '' : ' at startup'}: ${code(p.path || '(top level)')} ${p.message}`,
      vendorForm: isVendorForm(p),
    })),
    ...schema.map((p) => ({
      ...p,
      message: `${where} does not fit the schema of ${server}${checked}: ${code(p.path)} ${p.message}`,
      vendorForm: p.kind === 'unknown',
    })),
  ];
  // Compared as written (before the release's conversions), where the base holds it.
  const base = config.fromConfigMap ? undefined : config.base;
  const isBases = (path: string): boolean => base !== undefined && sameAsBase(config.value, base, path);
  const fromBase = findings.filter((f) => f.vendorForm && isBases(f.path));
  const out: FieldProblem[] = [];
  for (const f of findings) {
    if (fromBase.includes(f)) continue;
    // A provider of the base that can use an API no provider serves in this pod: the server starts,
    // and only that use fails; switching a provider of it on is the user's choice, not a mistake.
    if (f.code === 'missing-api-dependency' && isBases(entryPath(f.path))) {
      out.push({ severity: 'info', path: pathOf(f.path), message: `${where}: ${code(f.path)} of the base config: ${f.said ?? f.message}` });
    } else if (f.rule === 'single-provider-apis' && f.severity === 'error' && isBases(f.path)) {
      // A vendor's base may list a second provider of such an API to replace the first when the
      // pod switches it on (rh: s3 after localfs, by ENABLE_S3): the server keeps the last one.
      const api = /^providers\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(f.path)?.[1] ?? 'this API';
      const message = `${code(f.path)} of the base config is on in this pod after another ${api} provider; ${api} takes one, and ${server} keeps the last one`;
      out.push({ severity: 'info', path: pathOf(f.path), message });
    } else {
      out.push(problemOf(f, envRemedyPath(f, pathOf(f.path))));
    }
  }
  if (fromBase.length > 0) out.push(baseNote(plan, fromBase));
  for (const name of env.fileConflicts ?? []) {
    const message =
      `the pod sets both ${name} and ${name}_FILE, and the entrypoint of ${quote(plan.distributionName)}'s image stops when both are set ` +
      `(it reads ${name}_FILE's file into ${name}): keep one of them`;
    out.push({ severity: 'error', path: ['spec', 'workload', 'overrides', 'env'], message });
  }
  if (env.unknownSources.length > 0) {
    const message =
      `the pod also takes env from ${listOf(env.unknownSources)}, which is not in the input: what depends on a variable it may set is ` +
      'judged only as far as it is known (warnings, never errors); add it to the input to have it judged in full';
    out.push({ severity: 'info', path: [], message });
  }
  return out;
}

/**
 * Where a finding that the pod's env decides is told: at the CR field that wrote the value, else
 * (a key of the base, or of the image's own config) where the variables are set.
 */
function envRemedyPath(f: Finding, path: Path): Path {
  if (f.envVars === undefined || f.envVars.length === 0) return path;
  const written = path.length > 0 && !(path.length === 2 && path[0] === 'spec' && path[1] === 'distribution');
  return written ? path : ['spec', 'workload', 'overrides', 'env'];
}

/** Who runs the config, for messages: "OGX 1.2.2", "llama-stack 0.7.1". */
export const serverOf = (plan: Pick<ServerTarget, 'release'>): string => releaseName(plan.release);

/** A check's finding at a CR field: a warning keeps its code (each check that warns names one). */
function problemOf(found: Finding, path: Path): FieldProblem {
  if (found.severity === 'error') return { severity: 'error', path, message: found.message };
  return { severity: 'warning', code: found.code ?? 'env-conditional', path, message: found.message };
}

/** One info for what the base holds in a form the server ignores or converts: the user did not write it. */
function baseNote(plan: ServerTarget, found: readonly Finding[]): FieldProblem {
  const paths = [...new Set(found.map((f) => f.path))];
  const message =
    `the base config of ${quote(plan.distributionName)} holds ${paths.length === 1 ? 'a key' : 'keys'} that ${serverOf(plan)} ignores or reads in an older ` +
    `form: ${listOf(paths.map((p) => code(p)))}; they stay as the base has them (the server starts), and ${paths.length === 1 ? 'it is' : 'they are'} ` +
    'for the image\'s vendor to change';
  return { severity: 'info', path: ['spec', 'distribution'], message };
}

// ---------------------------------------------------------------------------------------------
// Is the value at a config path the base's, as the base has it?

type Segment = string | number;

/**
 * The value at `path` of the served config equals the base's at the same place: a provider entry
 * is the base's entry of the same id and type (the CR's may move it), an entry of another list an
 * equal one of the base's list; anything else by key.
 */
export function sameAsBase(served: unknown, base: unknown, path: string): boolean {
  const segments = segmentsOf(path);
  if (segments === undefined) return false;
  let here: unknown = served;
  let there: unknown = base;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (typeof segment === 'number') {
      if (!Array.isArray(here) || !Array.isArray(there)) return false;
      const item: unknown = here[segment];
      const inProviders = i === 2 && segments[0] === 'providers';
      there = there.find((candidate: unknown) => (inProviders ? sameProvider(item, candidate) : sameData(item, candidate)));
      here = item;
      if (there === undefined) return false;
    } else {
      if (!isPlainObject(here) || !isPlainObject(there) || !Object.hasOwn(here, segment) || !Object.hasOwn(there, segment)) return false;
      here = here[segment];
      there = there[segment];
    }
  }
  return sameData(here, there);
}

/** The provider entry a path is in (`providers.files[1]` of `providers.files[1].config.x`), else the path. */
const entryPath = (path: string): string => /^providers\.[A-Za-z_][A-Za-z0-9_-]*\[\d+\]/.exec(path)?.[0] ?? path;

const sameProvider = (a: unknown, b: unknown): boolean =>
  isPlainObject(a) && isPlainObject(b) && a.provider_id === b.provider_id && a.provider_type === b.provider_type;

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameData(a[key], b[key]));
}

/** `providers.files[1].config.bucket_name` → ['providers', 'files', 1, 'config', 'bucket_name'] (formatFieldPath's inverse). */
function segmentsOf(path: string): Segment[] | undefined {
  const out: Segment[] = [];
  const token = /\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    token.lastIndex = at;
    const m = token.exec(path);
    if (!m) return undefined;
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3] as string) as string)));
    at = token.lastIndex;
  }
  return out;
}

/** How a startup problem reads: it stops the server, troubles it, or lets it start but not as the user wrote it. */
function startupVerb(p: StartupProblem): string {
  if (p.startsAnyway) return 'not run as written on';
  return p.severity === 'error' ? 'stop' : 'trouble';
}
