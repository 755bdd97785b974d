// `convert --to ogx.io/v1beta1` checks its own output: the OGXServer (and the ConfigMap beside it)
// goes through the render `build` runs (src/process.ts: validate, plan, generate the config, render
// the objects), in-process and with the other documents of the input as the inventory, so convert
// never prints an OGXServer that `build` refuses. Each error `build` would give is told at the LLSD
// field the OGXServer field came from. Pure: the image labels `build` reads from a registry are not
// looked up here (docs/development.md: the registry is I/O), and such an OGXServer is told as not checked.
import { isRenderedObject } from '../front-ends.js';
import { formatFieldPath, type InputItem, type KrmObject } from '../krm/item.js';
import { parseYamlStream, stringifyYaml } from '../krm/yaml.js';
import type { Result } from '../krm/result.js';
import type { FieldProblem } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import { process } from '../process.js';
import { toOgxServer, type OgxConversion } from './to-ogxserver.js';

type Path = Array<string | number>;

/**
 * The LLSD as an OGXServer, as toOgxServer converts it, then built with `inventory` (the input's other
 * documents): an OGXServer `build` would refuse becomes the LLSD (unchanged) with `build`'s errors
 * at its fields; one whose image `build` must read the labels of is returned with an info that says so.
 */
export function toCheckedOgxServer(object: KrmObject, inventory: readonly InputItem[]): OgxConversion {
  const conversion = toOgxServer(object);
  if (conversion.object === object) return conversion;
  const built = buildProblems([conversion.object as KrmObject, ...(conversion.beside as KrmObject[])], inventory);
  if (built.pendingImage !== undefined) {
    const info: FieldProblem = {
      severity: 'info',
      path: conversion.sourceOf(['spec', 'distribution', 'image']),
      message: `was not checked with \`build\`: its config.yaml is read from the labels of ${quote(built.pendingImage)} in the registry, which convert does ` +
        'not reach; run `llsd-render build` on the output',
    };
    return { ...conversion, problems: [...conversion.problems, info] };
  }
  if (built.problems.length === 0) return conversion;
  const errors = built.problems.map((p) => ({
    path: conversion.sourceOf(p.path),
    message: `cannot be converted: \`build\` of the ${p.kind} ${quote(p.name)} would fail${p.path.length > 0 ? ` at \`${formatFieldPath(p.path)}\`` : ''}: ` +
      p.message + customKeyHint(p),
  }));
  return { object, beside: [], problems: [...conversion.problems, ...errors], sourceOf: conversion.sourceOf };
}

/**
 * For a config key a `custom` provider lacks: where to give it. Convert fills the keys the LLSD's
 * config takes from the release's sample and base (to-ogxserver.ts fillCustomSettings); one still
 * missing has no value there that the pod sets (a required env var), so the user gives it.
 */
function customKeyHint(problem: BuildProblem): string {
  if (!problem.path.includes('custom')) return '';
  const key = /`providers\.[a-z_]+\[\d+\]\.config\.([A-Za-z0-9_]+)` is missing/.exec(problem.message)?.[1];
  return key === undefined
    ? ''
    : `; the OGXServer's \`custom\` provider has the config keys the LLSD provider writes and those the release's sample config gives a value the pod ` +
        `sets, not \`${key}\`: give \`${key}\` in the LLSD provider's \`settings\` and convert again`;
}

interface BuildProblem {
  kind: string;
  name: string;
  path: Path;
  message: string;
}

/**
 * The errors `build` gives at `objects` when they are rendered among `inventory`'s documents that
 * are not rendered themselves (the LLSDs and OGXServers of the input would each be told on their own).
 */
export function buildProblems(objects: readonly KrmObject[], inventory: readonly InputItem[]): { problems: BuildProblem[]; pendingImage?: string } {
  const items = [...inventory.filter((item) => !isRenderedObject(item.object)), ...objects.map(itemOf)];
  const output = process({ mode: 'build', items });
  const pendingImage = output.pending?.images[0];
  if (pendingImage !== undefined) return { problems: [], pendingImage };
  const ours = ({ resourceRef: ref }: Result): boolean =>
    objects.some((o) => ref?.kind === o.kind && ref.name === o.metadata.name && ref.namespace === o.metadata.namespace);
  const problems = output.results
    .filter((r) => r.severity === 'error' && ours(r))
    .map((r) => ({ kind: r.resourceRef?.kind ?? '', name: r.resourceRef?.name ?? '', path: parseFieldPath(r.field?.path ?? ''), message: r.message }));
  return { problems };
}

/** A converted object as an input item, as `build` would read it from the printed output. */
function itemOf(object: KrmObject): InputItem {
  const [document] = parseYamlStream(stringifyYaml(object)).documents;
  if (!document?.node) throw new Error('a converted object did not read back as one YAML document');
  return { node: document.node, object: document.value as KrmObject, origin: {} };
}

/** `spec.providers.inference[1].id` → `['spec', 'providers', 'inference', 1, 'id']` (formatFieldPath backwards). */
export function parseFieldPath(text: string): Path {
  const path: Path = [];
  const pattern = /\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null && match[0] !== '') {
    if (match[1] !== undefined) path.push(match[1]);
    else if (match[2] !== undefined) path.push(Number(match[2]));
    else path.push(JSON.parse(match[3] as string) as string);
  }
  return path;
}
