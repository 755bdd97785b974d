// What to write, added to the schema's problems of an OGXServer (STYLE §8): a field of the wrong
// shape gets an example of the expected one (core/shape-hints.ts, shared with the LLSD); an
// LlamaStackDistribution field name gets "did you mean" the OGXServer field
// (configs/ogx-llsd-fields.yaml). Only user values that cannot be secrets are quoted back.
import { ogxLlsdFields } from '../catalog/catalog.js';
import { jsonSchemaOf, type JsonSchema } from '../core/crd.js';
import type { FieldProblem } from '../lib/issues.js';
import { exampleOf, nodeAt, refKind, shapeHint, shapeMessage, valueAt, withReferenceHints, type Path } from '../core/shape-hints.js';
import { lazily } from '../lib/zod.js';
import { ogxSchemas } from './ogxserver-schema.js';

/** The problems of the schema check, with what to write; `object` is the OGXServer as written. */
export function withOgxHints(problems: readonly FieldProblem[], object: unknown): FieldProblem[] {
  // A value of the wrong type is one problem: zod's checks of the other type (a length) are noise.
  const typed = new Set(problems.filter((p) => shapeMessage.test(p.message)).map((p) => p.path.join('.')));
  // An LLSD's Secret form, `{secretKeyRef: {name, key}}`, is one problem: at `secretKeyRef`, not also `name` and `key` missing.
  const llsdRefs = new Set(problems.filter((p) => p.path.at(-1) === 'secretKeyRef' && isRefAt(p.path.slice(0, -1))).map((p) => p.path.slice(0, -1).join('.')));
  const kept = problems
    .filter((p) => shapeMessage.test(p.message) || !typed.has(p.path.join('.')))
    .filter((p) => !(p.message.startsWith('is required') && llsdRefs.has(p.path.slice(0, -1).join('.'))));
  return withReferenceHints(kept, object, specSchema())
    .map((problem) => {
      if (llsdRefs.has(problem.path.slice(0, -1).join('.'))) {
        const key = String(problem.path.at(-2));
        return { ...problem, message: 'is how a LlamaStackDistribution names a Secret key; an OGXServer names it directly: write ' +
          `\`${key}: {name: <secret>, key: <key>}\`` };
      }
      if (problem.message.startsWith('is not a known field')) return llsdFieldHint(problem) ?? problem;
      if (problem.message === 'is required') return requiredHint(problem);
      if (shapeMessage.test(problem.message) && problem.path[0] === 'spec') {
        return { ...problem, message: ogxShapeHint(problem.path, problem.message, valueAt(object, problem.path)) };
      }
      return problem;
    });
}

const isRefAt = (path: Path): boolean => {
  const node = path[0] === 'spec' ? nodeAt(specSchema(), path.slice(1)) : undefined;
  return node !== undefined && refKind(node) === 'Secret';
};

// ---- "did you mean" for LLSD field names -------------------------------------------------------

function llsdFieldHint(problem: FieldProblem): FieldProblem | undefined {
  const keys = problem.path.slice(1).filter((p): p is string => typeof p === 'string');
  const key = keys.at(-1);
  if (problem.path[0] !== 'spec' || key === undefined) return undefined;
  const at = keys.join('.');
  const parent = keys.slice(0, -1).join('.');
  const { fields } = ogxLlsdFields();
  // As written at the LLSD's place; under an OGXServer field whose LLSD name the table gives
  // (`network.expose`: `networking.expose`); else the one LLSD field of that name, wherever it sits.
  const parents = fields.filter((f) => f.ogx === parent).map((f) => f.llsd);
  const byName = fields.filter((f) => f.llsd.split('.').at(-1) === key);
  const entry =
    fields.find((f) => f.llsd === at) ??
    fields.find((f) => parents.some((p) => f.llsd === `${p}.${key}`)) ??
    (new Set(byName.map((f) => f.ogx)).size === 1 ? byName[0] : undefined);
  if (!entry) return undefined;
  const note = entry.note === undefined ? '' : `: ${entry.note}`;
  if (entry.ogx === null) {
    return { ...problem, message: `is a LlamaStackDistribution field (\`${entry.llsd}\`), not an OGXServer one${note}` };
  }
  return {
    ...problem,
    message: `is not an OGXServer field; did you mean \`spec.${entry.ogx}\`? (a LlamaStackDistribution's \`${entry.llsd}\`)${note}`,
  };
}

/** A missing field: what to add, with an example value. */
function requiredHint(problem: FieldProblem): FieldProblem {
  const key = problem.path.at(-1);
  const node = problem.path[0] === 'spec' ? nodeAt(specSchema(), problem.path.slice(1)) : undefined;
  if (typeof key !== 'string' || !node) return problem;
  return { ...problem, message: `is required: add \`${key}: ${exampleOf(node, key, 1)}\`` };
}

// ---- shapes ----------------------------------------------------------------------------------------

const specSchema = lazily((): JsonSchema => jsonSchemaOf(ogxSchemas().spec));

const secretNote = 'put the value in a Secret labelled `ogx.io/watch: "true"` and name its key here';

/** The OGXServer's own cases (its providers grouped by API and placement), then the shared ones (core/shape-hints.ts). */
function ogxShapeHint(path: Path, start: string, value: unknown): string {
  const node = nodeAt(specSchema(), path.slice(1));
  const key = String(path.filter((p) => typeof p === 'string').at(-1) ?? 'spec');
  if (node && !refKind(node) && Array.isArray(value)) {
    const example = exampleOf(node, key, 0);
    if (key === 'providers') {
      return `${start}: an OGXServer groups providers by API, placement and type, with no \`provider:\` entries; write \`providers: ${example}\``;
    }
    if (isProviderGroup(path)) return `${start}: an OGXServer groups providers by placement (\`remote\`, \`inline\`) and type; write \`${key}: ${example}\``;
  }
  return shapeHint(specSchema(), path, value, start, { secretNote });
}

/** `spec.providers.<api>` or `.<api>.<placement>`: where an LLSD's provider list would go. */
const isProviderGroup = (path: Path): boolean => path[1] === 'providers' && (path.length === 3 || path.length === 4);

