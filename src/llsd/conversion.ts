// v1alpha1 ⇄ v1alpha2 conversion (docs/api.md), following the spec's field table ("Field Mapping:
// v1alpha1 to v1alpha2"). Pure functions over plain objects: the `convert` command, the conversion
// webhook and the renderer (v1alpha1 LLSDs are rendered as their v1alpha2 conversion) share them.
//
// Lossless both ways. A value is carried to its counterpart when the target schema accepts it
// there; everything else (fields the other version has no counterpart for, and values it cannot
// hold, such as `containerSpec.port: 0` or an empty `env` list) is kept as JSON in one annotation,
// `llamastack.io/conversion-data`, and restored when the object is converted back:
//
//   {"apiVersion":"llamastack.io/v1alpha2","spec":{"providers":{"inference":{"provider":"vllm"}}}}
//
// is a v1alpha1 object's record of the v1alpha2 fields it cannot hold; `apiVersion` says whose
// fields they are. The record is what must be added to the plain conversion to get the original
// back, computed by converting there and back again, so no field can be forgotten. Restoring only
// fills what the converted object lacks: a field changed after the conversion keeps its new value,
// and record fields that clash with such a change (withoutClashes) are dropped with a warning.
//
// The functions never validate the object against its schema (the webhook must convert whatever
// the API server stored; the CLI and the renderer validate before converting); their problems are
// about the conversion itself. Two exceptions: a number JSON cannot hold is refused (it would be
// written as null), and what the record adds is checked for fields the target version has none
// for, which only a hand edit puts there (withoutUnfit: dropped with a warning).
import { exactJson, parseExactJson } from '../lib/exact-integer.js';
import { nestsDeeperThan } from '../lib/json-cost.js';
import { formatFieldPath } from '../krm/item.js';
import { maxDepth } from '../krm/yaml.js';
import { clonePlain, isPlainObject, setOwn } from '../lib/objects.js';
import { deepEqual, getPath, samePath, setPath } from '../lib/plain-paths.js';
import { nonFiniteNumber } from '../lib/finite-numbers.js';
import { clip, code, quote } from '../lib/quote.js';
import type { z } from '../lib/zod.js';
import { problemsFromIssues, unknownKeyIssues, type FieldProblem } from '../lib/issues.js';
import { v1alpha1Schemas } from './llsd-v1alpha1.js';
import { group, kind, llsdV1alpha2Schemas } from './llsd-v1alpha2.js';
import { generatingFields } from './rules.js';

export const conversionAnnotation = 'llamastack.io/conversion-data';

export const v1alpha1 = `${group}/v1alpha1`;
export const v1alpha2 = `${group}/v1alpha2`;
export const llsdApiVersions = [v1alpha1, v1alpha2] as const;

type Plain = Record<string, unknown>;
type Schema = z.core.$ZodType;

export interface Conversion {
  /** The converted object; the input itself when there is an error. */
  object: Plain;
  problems: FieldProblem[];
}

/**
 * The field table, paths under `spec`. A row marked `object` maps a mapping as such (so `{}` stays
 * `{}`); its fields have rows of their own, and a field without a row has no counterpart.
 * `workload`, `networking`, `server`, `containerSpec`, `podOverrides` and `network` have no row:
 * they only group fields, and exist on the converted object when one of their fields does.
 */
const fieldTable: ReadonlyArray<readonly [v1alpha1: string, v1alpha2: string, shape?: 'object']> = [
  ['server.distribution', 'distribution', 'object'],
  ['server.distribution.name', 'distribution.name'],
  ['server.distribution.image', 'distribution.image'],
  ['server.containerSpec.port', 'networking.port'],
  ['server.containerSpec.resources', 'workload.resources', 'object'],
  ['server.containerSpec.resources.requests', 'workload.resources.requests'],
  ['server.containerSpec.resources.limits', 'workload.resources.limits'],
  ['server.containerSpec.env', 'workload.overrides.env'],
  ['server.containerSpec.command', 'workload.overrides.command'],
  ['server.containerSpec.args', 'workload.overrides.args'],
  ['server.userConfig', 'overrideConfig', 'object'],
  ['server.userConfig.configMapName', 'overrideConfig.configMapName'],
  ['server.storage', 'workload.storage', 'object'],
  ['server.storage.size', 'workload.storage.size'],
  ['server.storage.mountPath', 'workload.storage.mountPath'],
  ['server.tlsConfig', 'networking.tls', 'object'],
  ['server.tlsConfig.caBundle', 'networking.tls.caBundle', 'object'],
  ['server.tlsConfig.caBundle.configMapName', 'networking.tls.caBundle.configMapName'],
  ['server.tlsConfig.caBundle.configMapKeys', 'networking.tls.caBundle.configMapKeys'],
  ['server.autoscaling', 'workload.autoscaling', 'object'],
  ['server.autoscaling.minReplicas', 'workload.autoscaling.minReplicas'],
  ['server.autoscaling.maxReplicas', 'workload.autoscaling.maxReplicas'],
  ['server.autoscaling.targetCPUUtilizationPercentage', 'workload.autoscaling.targetCPUUtilization'],
  ['server.autoscaling.targetMemoryUtilizationPercentage', 'workload.autoscaling.targetMemoryUtilization'],
  ['server.workers', 'workload.workers'],
  ['server.podOverrides.serviceAccountName', 'workload.overrides.serviceAccountName'],
  ['server.podOverrides.terminationGracePeriodSeconds', 'workload.overrides.terminationGracePeriodSeconds'],
  ['server.podOverrides.volumes', 'workload.overrides.volumes'],
  ['server.podOverrides.volumeMounts', 'workload.overrides.volumeMounts'],
  ['server.podDisruptionBudget', 'workload.podDisruptionBudget', 'object'],
  ['server.podDisruptionBudget.minAvailable', 'workload.podDisruptionBudget.minAvailable'],
  ['server.podDisruptionBudget.maxUnavailable', 'workload.podDisruptionBudget.maxUnavailable'],
  ['server.topologySpreadConstraints', 'workload.topologySpreadConstraints'],
  ['replicas', 'workload.replicas'],
  ['network.exposeRoute', 'networking.expose'],
  ['network.allowedFrom', 'networking.allowedFrom', 'object'],
  ['network.allowedFrom.namespaces', 'networking.allowedFrom.namespaces'],
  ['network.allowedFrom.labels', 'networking.allowedFrom.labels'],
];

interface Row {
  from: string[];
  to: string[];
  object: boolean;
}

interface Direction {
  from: string;
  to: string;
  rows: readonly Row[];
  sourceSpec: Schema;
  targetSpec: Schema;
}

const rowsOf = (reverse: boolean): Row[] =>
  fieldTable.map(([v1, v2, shape]) => {
    const [from, to] = reverse ? [v2, v1] : [v1, v2];
    return { from: from.split('.'), to: to.split('.'), object: shape === 'object' };
  });

/** Both directions, made on first use (the v1alpha1 schemas are built lazily). */
let directions: { up: Direction; down: Direction } | undefined;
function directionsOf(): { up: Direction; down: Direction } {
  if (directions) return directions;
  const { specV1alpha1Schema } = v1alpha1Schemas();
  const { specSchema } = llsdV1alpha2Schemas();
  return (directions = {
    up: { from: v1alpha1, to: v1alpha2, rows: rowsOf(false), sourceSpec: specV1alpha1Schema, targetSpec: specSchema },
    down: { from: v1alpha2, to: v1alpha1, rows: rowsOf(true), sourceSpec: specSchema, targetSpec: specV1alpha1Schema },
  });
}
const reverseOf = (d: Direction): Direction => (d === directionsOf().up ? directionsOf().down : directionsOf().up);

/** A v1alpha1 LLSD as v1alpha2. */
export const toV1alpha2 = (object: unknown): Conversion => convert(object, directionsOf().up);

/** A v1alpha2 LLSD as v1alpha1. */
export const toV1alpha1 = (object: unknown): Conversion => convert(object, directionsOf().down);

/** An LLSD in `apiVersion`: converted when it is in the other version, the object itself when it is already there. */
export function convertTo(object: unknown, apiVersion: string): Conversion {
  const source = isPlainObject(object) ? object : {};
  if (!(llsdApiVersions as readonly string[]).includes(apiVersion)) {
    return {
      object: source,
      problems: [{ path: [], message: `cannot be converted to ${quote(apiVersion)}: the supported versions are ${llsdApiVersions.join(' and ')}` }],
    };
  }
  const unheld = nonFiniteNumber(object, []);
  if (unheld) return { object: source, problems: [unheld] };
  if (isPlainObject(object) && object.apiVersion === apiVersion && object.kind === kind) return { object, problems: [] };
  return convert(object, apiVersion === v1alpha2 ? directionsOf().up : directionsOf().down);
}


function convert(object: unknown, d: Direction): Conversion {
  if (!isPlainObject(object) || !isPlainObject(object.metadata)) {
    return { object: isPlainObject(object) ? object : {}, problems: [{ path: [], message: `must be a ${kind} with \`metadata\`` }] };
  }
  if (object.kind !== kind || object.apiVersion !== d.from) {
    const apiVersion = typeof object.apiVersion === 'string' ? clip(object.apiVersion) : '(no apiVersion)';
    const what = `${apiVersion} ${typeof object.kind === 'string' ? clip(object.kind) : '(no kind)'}`;
    return { object, problems: [{ path: ['apiVersion'], message: `must be ${d.from} ${kind} to be converted to ${d.to}, not ${what}` }] };
  }
  const taken = takeConversionData(object.metadata, d);
  if ('problem' in taken) return { object, problems: [taken.problem] };

  const spec = mapSpec(object.spec, d);
  const residue = ordered(additions(mapSpec(spec, reverseOf(d)), object.spec), d.sourceSpec);
  const { kept: fitting, dropped } = withoutClashes(taken.data?.spec, spec, d, taken.data?.alongside);
  const { kept, unfit } = withoutUnfit(fitting, spec, d);
  const restored = kept === undefined ? spec : fillMissing(spec, kept);

  const metadata: Plain = {};
  for (const [key, value] of Object.entries(object.metadata)) if (key !== 'annotations') setOwn(metadata, key, clonePlain(value));
  const recordedAnnotations = textAnnotations(taken.data?.metadata?.annotations, unfit);
  let annotations = fillMissing(taken.annotations, recordedAnnotations) as Plain | undefined;
  if (residue !== undefined) {
    if (annotations !== undefined && !isPlainObject(annotations)) {
      return { object, problems: [{ path: ['metadata', 'annotations'], message: 'must be a mapping to hold the conversion record' }] };
    }
    const record: Plain = { apiVersion: d.from };
    // An empty annotations map would disappear with the record on the way back.
    if (isPlainObject(taken.annotations) && Object.keys(taken.annotations).length === 0) record.metadata = { annotations: {} };
    record.spec = residue;
    // An object that already breaks a rule (stored before the rule, or written in the other
    // version): its recorded field came with the field it cannot be combined with, so converting
    // back keeps both, as they were.
    const alongside = recordedAlongside(object.spec, residue, d);
    if (alongside.length > 0) record.alongside = alongside;
    annotations = { ...(annotations ?? {}) };
    // Integers beyond 2^53 (an int64 `seed`) as written, not rounded (exact-integer.ts).
    setOwn(annotations, conversionAnnotation, exactJson(record));
  }
  if (annotations !== undefined) setOwn(metadata, 'annotations', annotations);

  const out: Plain = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion') setOwn(out, key, d.to);
    else if (key === 'metadata') setOwn(out, key, reorderMetadata(metadata, object.metadata));
    else if (key === 'spec') {
      if (restored !== undefined) setOwn(out, key, ordered(restored, d.targetSpec));
    } else setOwn(out, key, clonePlain(value));
  }
  if (!Object.hasOwn(out, 'spec') && restored !== undefined) setOwn(out, 'spec', ordered(restored, d.targetSpec));
  const problems = [...(dropped.length === 0 ? [] : [droppedWarning(dropped, d)]), ...(unfit.length === 0 ? [] : [unfitWarning(unfit, d)])];
  return { object: out, problems };
}

/** A field of the conversion record that the target version does not accept (full path), and why. */
interface Unfit {
  path: Array<string | number>;
  message: string;
}

/**
 * The conversion record without the fields the target version has no place for. A record
 * llsd-render wrote holds only fields of that version (the API server prunes unknown fields before
 * an object is stored, and `convert` checks its input first), so an unknown one (`spec.x`) comes
 * from a record edited by hand, and would otherwise come back in the converted object. Only what
 * the record adds is judged, and only for unknown fields: a value of the wrong kind at a known
 * field comes back as the object held it (the conversion is lossless for any object the API server
 * stored), and the API server judges it with the rest of the object.
 */
function withoutUnfit(record: unknown, spec: Plain | undefined, d: Direction): { kept: unknown; unfit: Unfit[] } {
  if (!isPlainObject(record)) return { kept: record, unfit: [] };
  const checked = (d.targetSpec as unknown as z.ZodMiniType).safeParse(fillMissing(spec, record), { reportInput: true });
  if (checked.success) return { kept: record, unfit: [] };
  const unknown = unknownKeyIssues(checked.error.issues, []);
  if (unknown.length === 0) return { kept: record, unfit: [] };
  const kept = clonePlain(record) as Plain;
  const unfit: Unfit[] = [];
  for (const problem of problemsFromIssues(unknown, d.targetSpec)) {
    const keys = problem.path.filter((key): key is string => typeof key === 'string');
    // Inside a list, or a field the object itself has (which the record cannot have added): not the record's.
    if (keys.length !== problem.path.length || getPath(spec, keys) !== undefined || getPath(kept, keys) === undefined) continue;
    removePath(kept, keys, []);
    unfit.push({ path: ['spec', ...problem.path], message: problem.message });
  }
  return { kept: Object.keys(kept).length === 0 ? undefined : kept, unfit };
}

/** The record's annotations that are text (the only kind an annotation holds); each other one is unfit. */
function textAnnotations(recorded: unknown, unfit: Unfit[]): unknown {
  if (!isPlainObject(recorded)) return recorded;
  const out: Plain = {};
  let dropped = false;
  for (const [key, value] of Object.entries(recorded)) {
    if (typeof value === 'string') setOwn(out, key, value);
    else {
      dropped = true;
      unfit.push({ path: ['metadata', 'annotations', key], message: `must be a string, not ${value === null ? 'null' : typeof value}` });
    }
  }
  // An empty map recorded as such stays (the object had one); one emptied here is no annotation.
  return dropped && Object.keys(out).length === 0 ? undefined : out;
}

/** The warning for record fields the target version does not accept, naming each and why. */
function unfitWarning(unfit: readonly Unfit[], d: Direction): FieldProblem {
  const shown = unfit.slice(0, 5).map((u) => `${code(formatFieldPath(u.path))} (${u.message})`);
  if (unfit.length > 5) shown.push(`${unfit.length - 5} more`);
  return {
    severity: 'warning',
    code: 'conversion-data-dropped',
    path: ['metadata', 'annotations', conversionAnnotation],
    message:
      `held fields that ${d.to} does not accept, which no record llsd-render writes holds (it was edited): dropped ${shown.join('; ')}. ` +
      `Set them again in ${d.to}, as its schema says, if they are still wanted`,
  };
}

/** A field of the conversion record that was dropped, and the converted field it clashed with (paths under `spec`, in the target version). */
interface Clash {
  dropped: string[];
  because: string[];
}

/**
 * Fields of v1alpha2 that cannot be set together (the CRD's rules, crd.ts and rules.ts): a whole
 * config from a ConfigMap and the fields that generate one, a named distribution and an image,
 * the two forms of a PodDisruptionBudget.
 */
const exclusiveV1alpha2: ReadonlyArray<readonly [string, string]> = [
  ...generatingFields.map((field) => ['overrideConfig', field] as const),
  ['distribution.name', 'distribution.image'],
  ['workload.podDisruptionBudget.minAvailable', 'workload.podDisruptionBudget.maxUnavailable'],
];

/**
 * The conversion record's fields that still fit the converted object, and those dropped because
 * they clash with it. The record was written when the object was converted the other way; a field
 * the client of the source version has set since wins over what the record holds:
 * - at the same place: the record holds a value for a field whose counterpart the source sets now
 *   (a record only holds a value the source could not, so the source set it after the record was
 *   written);
 * - by a rule: the record holds a field that cannot be combined with one the source sets (a
 *   v1alpha1 `userConfig` set after providers were recorded: providers and `overrideConfig`).
 */
function withoutClashes(record: unknown, spec: Plain | undefined, d: Direction, alongside: unknown): { kept: unknown; dropped: Clash[] } {
  if (!isPlainObject(record) || spec === undefined) return { kept: record, dropped: [] };
  const kept = clonePlain(record) as Plain;
  const dropped: Clash[] = [];
  const drop = (path: string[], because: string[]): void => {
    if (getPath(kept, path) === undefined) return;
    removePath(kept, path, []);
    dropped.push({ dropped: path, because });
  };
  for (const row of d.rows) if (!row.object && getPath(spec, row.to) !== undefined) drop(row.to, row.to);
  const setBefore = new Set(Array.isArray(alongside) ? alongside.filter((a) => typeof a === 'string') : []);
  for (const [a, b] of exclusivePairs(d)) {
    if (getPath(spec, a) !== undefined && !setBefore.has(a.join('.'))) drop(b, a);
    if (getPath(spec, b) !== undefined && !setBefore.has(b.join('.'))) drop(a, b);
  }
  return { kept: Object.keys(kept).length === 0 ? undefined : kept, dropped };
}

/** The fields of `spec` (dotted paths) that the record `residue` holds a field beside that cannot be combined with them. */
function recordedAlongside(spec: unknown, residue: unknown, d: Direction): string[] {
  const set = new Set<string>();
  for (const [a, b] of exclusivePairs(reverseOf(d))) {
    if (getPath(spec, a) !== undefined && getPath(residue, b) !== undefined) set.add(a.join('.'));
    if (getPath(spec, b) !== undefined && getPath(residue, a) !== undefined) set.add(b.join('.'));
  }
  return [...set];
}

/** The exclusive pairs in the target version's paths: v1alpha2's, or (down) those whose both fields have v1alpha1 counterparts. */
function exclusivePairs(d: Direction): Array<readonly [string[], string[]]> {
  const pairs = exclusiveV1alpha2.map(([a, b]) => [a.split('.'), b.split('.')] as const);
  if (d.to === v1alpha2) return pairs;
  const counterpart = (path: string[]): string[] | undefined => d.rows.find((r) => samePath(r.from, path))?.to;
  return pairs.flatMap(([a, b]) => {
    const [ca, cb] = [counterpart(a), counterpart(b)];
    return ca && cb ? [[ca, cb] as const] : [];
  });
}

/** The warning for dropped record fields, naming each and the source field that won, in the versions' own paths. */
function droppedWarning(dropped: readonly Clash[], d: Direction): FieldProblem {
  const sourcePath = (target: string[]): string => {
    const row = d.rows.filter((r) => r.to.every((key, i) => target[i] === key)).sort((x, y) => y.to.length - x.to.length)[0];
    return formatFieldPath(['spec', ...(row ? [...row.from, ...target.slice(row.to.length)] : target)]);
  };
  const field = (path: string[]): string => code(formatFieldPath(['spec', ...path]));
  const groups = new Map<string, Clash[]>();
  for (const clash of dropped) groups.set(clash.because.join('.'), [...(groups.get(clash.because.join('.')) ?? []), clash]);
  const clauses = [...groups.values()].map((clashes) => {
    const because = (clashes[0] as Clash).because;
    const same = clashes.filter((c) => samePath(c.dropped, because));
    const ruled = clashes.filter((c) => !samePath(c.dropped, because));
    return [
      ...same.map((c) => `${field(c.dropped)}, now set from ${code(sourcePath(because))}`),
      ...(ruled.length === 0
        ? []
        : [`${ruled.map((c) => field(c.dropped)).join(' and ')}, which cannot be combined with ${field(because)} (from ${code(sourcePath(because))})`]),
    ].join('; ');
  });
  const ruled = dropped.some((c) => !samePath(c.dropped, c.because));
  return {
    severity: 'warning',
    code: 'conversion-data-dropped',
    path: ['metadata', 'annotations', conversionAnnotation],
    message:
      `held ${d.to} fields that clash with changes made in ${d.from} after it was written, and the changes win: dropped ${clauses.join('; ')}` +
      (ruled ? `. Set the dropped fields again in ${d.to} if they are still wanted` : ''),
  };
}

interface ConversionData {
  metadata?: { annotations?: Plain };
  spec?: unknown;
  /** Fields (dotted paths under `spec`, in the record's version) set beside a recorded field they cannot be combined with, when the record was written. */
  alongside?: unknown;
}

/**
 * The API server keeps at most 256 KiB of annotations on an object, so llsd-render never writes a
 * larger record; one that nests deeper than any input may (the YAML reader's limit) is no record of
 * ours. Bounded before it is parsed: a record is one string to a reader, and parsing 16 MiB of `{}`
 * in it held the webhook for seconds and 1.3 GB (256 KiB holds at most 131,072 values: `[1,1,…]`).
 */
const maxRecordBytes = 256 * 1024;
/** As deep as any input may nest (yaml.ts): a converted object holds the record's fields at that depth, and PyYAML reads no more than about 490. */
const maxRecordDepth = maxDepth;

/** Why the conversion record cannot be ours, or undefined when it may be. */
function recordCost(raw: string): string | undefined {
  // Characters first: a string of more than maxRecordBytes of them has more bytes too, and is not measured.
  const bytes = raw.length > maxRecordBytes ? raw.length : Buffer.byteLength(raw, 'utf8');
  if (bytes > maxRecordBytes) {
    return `is ${bytes} bytes long or more, longer than any record llsd-render writes (the API server keeps at most 256 KiB of an object's annotations)`;
  }
  if (nestsDeeperThan(raw, maxRecordDepth)) return `nests objects and lists more than ${maxRecordDepth} levels deep, deeper than any record llsd-render writes`;
  return undefined;
}

/** The object's annotations without the conversion record, and the record when it holds fields of the target version. */
function takeConversionData(metadata: Plain, d: Direction): { annotations: Plain | undefined; data?: ConversionData } | { problem: FieldProblem } {
  const annotations = metadata.annotations;
  if (!isPlainObject(annotations) || !Object.hasOwn(annotations, conversionAnnotation)) {
    return { annotations: annotations === undefined ? undefined : (clonePlain(annotations) as Plain) };
  }
  const rest: Plain = {};
  for (const [key, value] of Object.entries(annotations)) if (key !== conversionAnnotation) setOwn(rest, key, value);
  const path = ['metadata', 'annotations', conversionAnnotation];
  const raw = annotations[conversionAnnotation];
  const fix = 'restore the value llsd-render wrote, or remove the annotation to convert without it (the fields it held are then lost)';
  const tooCostly = typeof raw === 'string' ? recordCost(raw) : undefined;
  if (tooCostly !== undefined) return { problem: { path, message: `${tooCostly}; ${fix}` } };
  let data: unknown;
  try {
    data = typeof raw === 'string' ? parseExactJson(raw) : undefined;
  } catch {
    data = undefined;
  }
  const recordedAnnotations = isPlainObject(data) && isPlainObject(data.metadata) ? data.metadata.annotations : undefined;
  if (
    !isPlainObject(data) ||
    typeof data.apiVersion !== 'string' ||
    (data.metadata !== undefined && !isPlainObject(data.metadata)) ||
    (recordedAnnotations !== undefined && !isPlainObject(recordedAnnotations))
  ) {
    return { problem: { path, message: `must be the JSON record llsd-render writes (\`{"apiVersion": …, "spec": {…}}\`); ${fix}` } };
  }
  if (data.apiVersion !== d.to) {
    return { problem: { path, message: `holds fields of ${data.apiVersion}, but this object is converted from ${d.from} to ${d.to}; ${fix}` } };
  }
  // A record is JSON in a string: the check of the object's own numbers never saw it (`1E400` in a
  // hand-edited record crashed the webhook as it wrote the converted object).
  const unheld = nonFiniteNumber(data, []);
  if (unheld) {
    const what = unheld.message.replace(/^must be a finite number: it /, '');
    return { problem: { path, message: `holds at \`${formatFieldPath(unheld.path)}\` a number that ${what}; ${fix}` } };
  }
  return { annotations: Object.keys(rest).length === 0 ? undefined : rest, data };
}

/**
 * Maps a spec through the field table. A value is carried when both schemas accept it at their
 * ends of the row; anything else stays behind (and so goes into the conversion record as it is),
 * which keeps a value from being both carried and recorded.
 */
function mapSpec(spec: unknown, d: Direction, force = false): Plain | undefined {
  if (!isPlainObject(spec)) return undefined;
  const out: Plain = {};
  for (const row of d.rows) {
    const value = getPath(spec, row.from);
    if (value === undefined) continue;
    if (row.object) {
      if (isPlainObject(value) && getPath(out, row.to) === undefined) setPath(out, row.to, {});
    } else if (force || (accepts(d.targetSpec, row.to, value) && accepts(d.sourceSpec, row.from, value))) {
      setPath(out, row.to, clonePlain(value));
    }
  }
  if (!force) {
    // A mapping the target cannot hold as a whole (a required field left behind) stays behind too.
    for (const row of d.rows.filter((r) => r.object).reverse()) {
      const value = getPath(out, row.to);
      if (value !== undefined && !accepts(d.targetSpec, row.to, value)) removePath(out, row.to, d.rows);
    }
  }
  return out;
}

/** What must be added to `base` to get `source` back. `base` holds only values taken from `source`. */
function additions(base: unknown, source: unknown): unknown {
  if (base === undefined) return clonePlain(source);
  if (isPlainObject(base) && isPlainObject(source)) {
    const out: Plain = {};
    for (const [key, value] of Object.entries(source)) {
      const added = Object.hasOwn(base, key) ? additions(base[key], value) : clonePlain(value);
      if (added !== undefined) setOwn(out, key, added);
    }
    const invented = Object.keys(base).find((key) => !Object.hasOwn(source, key));
    if (invented !== undefined) throw new Error(`conversion invented the field "${invented}"`);
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (deepEqual(base, source)) return undefined;
  throw new Error('conversion changed a value it carried');
}

/** `target` with what it lacks taken from `data`; what it has wins. */
function fillMissing(target: unknown, data: unknown): unknown {
  if (target === undefined) return clonePlain(data);
  if (!isPlainObject(target) || !isPlainObject(data)) return target;
  const out: Plain = {};
  for (const [key, value] of Object.entries(target)) setOwn(out, key, value);
  for (const [key, value] of Object.entries(data)) setOwn(out, key, fillMissing(Object.hasOwn(out, key) ? out[key] : undefined, value));
  return out;
}

/** Does the schema accept `value` at `path`? */
function accepts(schema: Schema, path: readonly string[], value: unknown): boolean {
  const at = schemaAt(schema, path);
  return at !== undefined && (at as z.ZodMiniType).safeParse(value).success;
}

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const def = s._zod.def as unknown as { type: string; innerType?: Schema };
    if (!['optional', 'default', 'prefault', 'nullable', 'readonly', 'nonoptional'].includes(def.type) || !def.innerType) return s;
    s = def.innerType;
  }
}

function schemaAt(schema: Schema, path: readonly string[]): Schema | undefined {
  let s: Schema | undefined = schema;
  for (const key of path) {
    if (!s) return undefined;
    const def = unwrap(s)._zod.def as unknown as { type: string; shape?: Record<string, Schema> };
    s = def.type === 'object' && def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
  }
  return s;
}

/** `value` with its keys in the order of the schema's fields (others after them, as they were). */
function ordered(value: unknown, schema: Schema | undefined): unknown {
  if (schema === undefined || (!Array.isArray(value) && !isPlainObject(value))) return value;
  const def = unwrap(schema)._zod.def as unknown as {
    type: string;
    shape?: Record<string, Schema>;
    element?: Schema;
    valueType?: Schema;
    options?: Schema[];
  };
  if (Array.isArray(value)) return def.type === 'array' ? value.map((v) => ordered(v, def.element)) : value;
  if (def.type === 'record') {
    const out: Plain = {};
    for (const [key, v] of Object.entries(value)) setOwn(out, key, ordered(v, def.valueType));
    return out;
  }
  if (def.type === 'union') {
    const option = def.options?.find((o) => {
      const shape = (unwrap(o)._zod.def as unknown as { shape?: Record<string, Schema> }).shape;
      return shape !== undefined && Object.keys(value).every((key) => Object.hasOwn(shape, key));
    });
    return option ? ordered(value, option) : value;
  }
  if (def.type !== 'object' || !def.shape) return value;
  const out: Plain = {};
  for (const [key, field] of Object.entries(def.shape)) if (Object.hasOwn(value, key)) setOwn(out, key, ordered(value[key], field));
  for (const [key, v] of Object.entries(value)) if (!Object.hasOwn(out, key)) setOwn(out, key, v);
  return out;
}

/** The metadata keys in the order the source had them (`annotations` may be new: then last). */
function reorderMetadata(metadata: Plain, source: Plain): Plain {
  const out: Plain = {};
  for (const key of Object.keys(source)) if (Object.hasOwn(metadata, key)) setOwn(out, key, metadata[key]);
  for (const [key, value] of Object.entries(metadata)) if (!Object.hasOwn(out, key)) setOwn(out, key, value);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The renderer's view: v1alpha1 LLSDs render as their v1alpha2 conversion, and what that
// conversion could not carry is said, in v1alpha1 field paths.

/**
 * A problem found in the v1alpha2 conversion of a v1alpha1 LLSD, at the v1alpha1 field it came
 * from. A v1alpha2 field with no v1alpha1 counterpart can only have come from the conversion
 * record, so the problem is put on that annotation and names the field.
 */
export function v1alpha1Problem(problem: FieldProblem): FieldProblem {
  const [head, ...rest] = problem.path;
  if (head !== 'spec' || rest.length === 0) return problem;
  let row: Row | undefined;
  for (const r of directionsOf().down.rows) {
    if (r.from.length <= rest.length && r.from.every((key, i) => rest[i] === key) && (!row || r.from.length > row.from.length)) row = r;
  }
  if (row) return { ...problem, path: ['spec', ...row.to, ...rest.slice(row.from.length)] };
  return {
    ...problem,
    path: ['metadata', 'annotations', conversionAnnotation],
    message: `${code(formatFieldPath(problem.path))} (a v1alpha2 field kept in this annotation) ${problem.message}`,
  };
}

/**
 * What the v1alpha2 conversion of a v1alpha1 LLSD leaves behind and so does not render, as
 * problems at the v1alpha1 fields: a value v1alpha2 cannot hold gets the message v1alpha2 would
 * give for it. Values that mean the default in v1alpha1 (an empty list, `port: 0`, the default
 * container name, the LLSD's own namespace) are left behind silently.
 */
export function v1alpha1FieldsNotRendered(object: Plain): FieldProblem[] {
  const spec = object.spec;
  const converted = mapSpec(spec, directionsOf().up);
  const residue = additions(mapSpec(converted, directionsOf().down), spec);
  const namespace = isPlainObject(object.metadata) && typeof object.metadata.namespace === 'string' ? object.metadata.namespace : undefined;
  const problems: FieldProblem[] = [];
  const walk = (path: string[], value: unknown): void => {
    const row = directionsOf().up.rows.find((r) => samePath(r.from, path));
    if (row && getPath(converted, row.to) === undefined) {
      if (!isDefaultValue(path, value, namespace)) problems.push(...rejectedValue(path, value));
      if (isPlainObject(value))
        for (const [key, v] of Object.entries(value)) if (!directionsOf().up.rows.some((r) => samePath(r.from, [...path, key]))) walk([...path, key], v);
      return;
    }
    if (isPlainObject(value) && (row || isGroup(path))) {
      for (const [key, v] of Object.entries(value)) walk([...path, key], v);
      return;
    }
    if (!isDefaultValue(path, value, namespace)) problems.push(withoutCounterpart(path, value, object));
  };
  if (isPlainObject(residue)) for (const [key, value] of Object.entries(residue)) walk([key], value);
  return problems;
}

/** v1alpha2's own messages for a value it cannot hold, at the v1alpha1 paths. */
function rejectedValue(path: string[], value: unknown): FieldProblem[] {
  const single: Plain = {};
  setPath(single, path, value);
  const row = directionsOf().up.rows.find((r) => samePath(r.from, path)) as Row;
  const forced = mapSpec(single, directionsOf().up, true) ?? {};
  const { specSchema } = llsdV1alpha2Schemas();
  const parsed = specSchema.safeParse(forced);
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => row.to.every((key, i) => issue.path[i] === key));
  const problems = problemsFromIssues(issues, specSchema).map((p) => v1alpha1Problem({ ...p, path: ['spec', ...p.path] }));
  return problems.length > 0 ? problems : [{ path: ['spec', ...path], message: 'cannot be converted to v1alpha2, so it cannot be rendered' }];
}

function withoutCounterpart(path: string[], value: unknown, object: Plain): FieldProblem {
  const at = ['spec', ...path];
  const name = path.join('.');
  if (name === 'server.containerSpec.name') {
    return {
      severity: 'warning',
      code: 'v1alpha1-field-ignored',
      path: at,
      message: `is ignored: the server container is always named \`llama-stack\`, not ${quote(String(value))}`,
    };
  }
  if (name === 'server.userConfig.configMapNamespace') {
    const configMap = getPath(object, ['spec', 'server', 'userConfig', 'configMapName']);
    return {
      severity: 'warning',
      code: 'v1alpha1-field-ignored',
      path: at,
      message: `is ignored: the pod mounts the ConfigMap ${quote(String(configMap))} from its own namespace, as the v1alpha1 operator does; keep the ` +
        `ConfigMap next to the LLSD`,
    };
  }
  if (name === 'server.tlsConfig.caBundle.configMapNamespace') {
    return {
      path: at,
      message: `must be the LLSD's own namespace: a pod can mount a CA bundle ConfigMap only from its namespace; copy the ConfigMap there and remove ` +
        `\`configMapNamespace\``,
    };
  }
  if (name === 'server.containerSpec.resources.claims') {
    return { path: at, message: 'is not supported: v1alpha2 has no resource claims; remove `claims`' };
  }
  return { path: at, message: 'has no v1alpha2 counterpart, so it cannot be rendered; remove it' };
}

/** Values that mean the same as leaving the field out, in v1alpha1. */
function isDefaultValue(path: string[], value: unknown, namespace: string | undefined): boolean {
  if (Array.isArray(value) && value.length === 0) return true;
  if (isPlainObject(value) && Object.keys(value).length === 0) return true;
  switch (path.join('.')) {
    case 'server.containerSpec.port':
      return value === 0;
    case 'server.containerSpec.name':
      return value === 'llama-stack';
    case 'server.userConfig.configMapNamespace':
    case 'server.tlsConfig.caBundle.configMapNamespace':
      return value === namespace;
    default:
      return false;
  }
}

/** v1alpha1 mappings that only group fields. */
const isGroup = (path: readonly string[]): boolean => ['server', 'server.containerSpec', 'server.podOverrides', 'network'].includes(path.join('.'));

/** Removes the value at `path`, and the grouping mappings it leaves empty. */
function removePath(target: Plain, path: readonly string[], rows: readonly Row[]): void {
  for (let end = path.length; end > 0; end--) {
    const parent = getPath(target, path.slice(0, end - 1));
    if (!isPlainObject(parent)) return;
    const key = path[end - 1] as string;
    const value = parent[key];
    const isRowTarget = rows.some((r) => r.object && samePath(r.to, path.slice(0, end)));
    if (end < path.length && (!isPlainObject(value) || Object.keys(value).length > 0 || isRowTarget)) return;
    delete parent[key];
  }
}
