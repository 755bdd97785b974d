// Imports the release catalog: for every release folder of the server catalog (facts extracted
// from each llama-stack / OGX release's own code), writes what llsd-render consults into
// configs/catalog/. Re-run it when a release is added (docs/releases.md "Adding a release"); its output is
// checked in and reviewed like code.
//
//   node scripts/import-catalog.mjs [SERVER_CATALOG_DIR] [--prune]   (default ../shared/reference/server-catalog)
//
// The server catalog must hold every release configs/catalog/ has (else the import refuses, unless
// --prune says to drop the missing ones); the output is written beside configs/catalog/ and swapped
// in at the end, so a failed import leaves the old catalog as it was.
//
// Per release R, configs/catalog/R/:
//   release.yaml    where it came from, the run-config schema's key, and the APIs (providable,
//                   routed, routing tables, internal)
//   providers.yaml  per API and provider type: schema key, API dependencies, deprecations, the
//                   keys the server also accepts for a field (aliases), secret fields, and the
//                   release's own sample config
//   distributions/  every shipped distribution config, byte for byte (with its SOURCE)
// and configs/catalog/schemas.json: the JSON Schemas of all releases, content-addressed so a model
// that did not change between releases is stored once.
//
// The schemas are the release's pydantic models (validation mode, by alias), changed in three ways
// so a JSON Schema validator answers what the server does with our config:
//   - every model object gets `additionalProperties: false` unless its model allows extra keys: the
//     server silently drops a key it does not define, and DESIGN §5 forbids writing one;
//   - a discriminated union (`oneOf` + `discriminator`) becomes `anyOf`: pydantic picks the branch by
//     its tag, and branches whose tag has a default may all match;
//   - a field's other accepted names (populate_by_name, AliasChoices) become properties too;
//   - a scalar (number, boolean, null, enum/const/pattern-constrained string) also accepts an
//     `${env.X…}` placeholder string, which the server substitutes before validating; the
//     renderer resolves placeholders whose value it knows before it validates (src/catalog/).
// Annotations (title, description, examples, format) are dropped (`default` is kept: it says what an
// omitted key means, e.g. a store's backend); `format: password`
// (pydantic SecretStr) is recorded as a secret field first.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const prune = args.includes('--prune');
const source = args.find((a) => !a.startsWith('--')) ?? join(root, '../shared/reference/server-catalog');
const target = join(root, 'configs/catalog');
const staging = join(root, 'configs/.catalog-import');
const fail = (message) => {
  console.error(`import-catalog: ${message}`);
  process.exit(1);
};
if (!existsSync(source)) fail(`no server catalog at ${source}; pass its directory: node scripts/import-catalog.mjs SERVER_CATALOG_DIR`);

const versionOrder = (a, b) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};
const releases = readdirSync(source)
  .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
  .sort(versionOrder);
if (releases.length === 0) fail(`${source} has no release folders (like 1.3.0/)`);
// The import rewrites configs/catalog/ from the server catalog: a release it lacks would be deleted.
const present = existsSync(target) ? readdirSync(target).filter((name) => /^\d+\.\d+\.\d+$/.test(name)) : [];
const lost = present.filter((release) => !releases.includes(release));
if (lost.length > 0 && !prune) {
  fail(`${source} lacks ${lost.join(', ')}, which configs/catalog/ has: the import would delete ${lost.length === 1 ? 'it' : 'them'}. Pass a server catalog ` +
    `with every release (add the new folder beside the others), or --prune to drop them on purpose`);
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const hash = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 8);

const PLACEHOLDER_DEF = 'EnvPlaceholder';
/** The defs of every release, by content-addressed key `<ModelName>.<hash>`. */
const defs = { [PLACEHOLDER_DEF]: { type: 'string', pattern: '\\$\\{env\\.[A-Z0-9_]+' } };
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'format', 'writeOnly', 'readOnly', 'deprecated', 'discriminator']);
const SCALARS = new Set(['integer', 'number', 'boolean', 'null']);

/** Is `node` a schema a substituted placeholder could be meant for (a scalar with a constraint)? */
function scalarNode(node) {
  const types = node.type === undefined ? [] : [node.type].flat();
  if (types.some((t) => t === 'object' || t === 'array')) return false;
  if (types.some((t) => SCALARS.has(t))) return true;
  const constrained = ['enum', 'const', 'pattern', 'minLength', 'maxLength'].some((k) => k in node);
  return constrained && (types.length === 0 || types.includes('string'));
}

/**
 * Adds one schema (with its local $defs) to `defs` and returns its key. `models` maps a def name
 * (pydantic's class name) to its extra policy and aliases, from providers.json / extra-policies.json.
 */
function addSchema(schema, rootName, rootModel, models) {
  const local = schema.$defs ?? {};
  const keys = {};
  const resolving = new Set();
  const keyOf = (name) => {
    if (keys[name]) return keys[name];
    if (resolving.has(name)) throw new Error(`recursive model ${name}: a content address needs an acyclic schema`);
    resolving.add(name);
    const body = rewrite(local[name], models[name]);
    keys[name] = `${name}.${hash(body)}`;
    defs[keys[name]] ??= body;
    resolving.delete(name);
    return keys[name];
  };
  const rewrite = (node, model) => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item));
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs' || ANNOTATIONS.has(key)) continue;
      if (key === '$ref') {
        out.$ref = `#/$defs/${keyOf(value.replace('#/$defs/', ''))}`;
      } else if (key === 'properties') {
        out.properties = {};
        for (const [name, sub] of Object.entries(value)) out.properties[name] = rewrite(sub);
      } else {
        out[key] = rewrite(value);
      }
    }
    // A pydantic discriminated union picks its branch by the tag; its branches may overlap when the
    // tag has a default, which `oneOf` (exactly one match) would count as a failure.
    if (node.discriminator && out.oneOf) {
      out.anyOf = out.oneOf;
      delete out.oneOf;
    }
    if (out.properties) {
      for (const [field, alias] of Object.entries(model?.aliases ?? {})) {
        const main = typeof alias.alias === 'string' ? alias.alias : field;
        const schemaOf = out.properties[main] ?? out.properties[field];
        if (!schemaOf) continue;
        const names = [alias.validation_alias ?? []].flat();
        if (alias.field_name_also_accepted) names.push(field);
        for (const name of names) if (typeof name === 'string') out.properties[name] ??= schemaOf;
      }
      if (!('additionalProperties' in out) && !String(model?.extra ?? 'ignore').startsWith('allow')) out.additionalProperties = false;
    }
    if (scalarNode(out)) return { anyOf: [out, { $ref: `#/$defs/${PLACEHOLDER_DEF}` }] };
    return out;
  };
  const top = rewrite(schema, rootModel);
  const key = `${rootName}.${hash(top)}`;
  defs[key] ??= top;
  return key;
}

/** `format: password` (SecretStr) fields of a provider config, top level. */
function secretFields(schema) {
  const secret = (node) => node && typeof node === 'object' && (node.format === 'password' || node.writeOnly === true || (node.anyOf ?? []).some(secret));
  return Object.entries(schema.properties ?? {})
    .filter(([, node]) => secret(node))
    .map(([name]) => name)
    .sort();
}

/** pydantic's def names are class names; providers.json keys nested models by their full path. */
const byClassName = (models) => Object.fromEntries(Object.entries(models ?? {}).map(([path, model]) => [path.split('.').pop(), model]));

const header = (release, what) =>
  `# Generated by scripts/import-catalog.mjs from the server catalog's ${release}/ (${what}). Do not edit:\n# change the import and re-run it.\n`;

rmSync(staging, { recursive: true, force: true });
for (const release of releases) {
  const from = join(source, release);
  const out = join(staging, release);
  mkdirSync(out, { recursive: true });

  const apis = readJson(join(from, 'apis.json'));
  const field = (prefix) => apis[Object.keys(apis).find((k) => k.startsWith(prefix))];
  const extraPolicies = byClassName(readJson(join(from, 'extra-policies.json')));
  const runConfig = readJson(join(from, 'stack-config.schema.json'));
  const runConfigKey = addSchema(runConfig, runConfig.title ?? 'StackConfig', extraPolicies[runConfig.title], extraPolicies);
  const provenance = readFileSync(join(from, 'distributions/starter/SOURCE'), 'utf8');
  const origin = Object.fromEntries(['repo', 'tag', 'commit'].map((k) => [k, new RegExp(`^${k}: (.*)$`, 'm').exec(provenance)?.[1]]));
  const routers = Object.fromEntries(apis.auto_routed.map((r) => [r.routing_table_api, r.router_api]));
  writeFileSync(
    join(out, 'release.yaml'),
    header(release, 'apis.json, stack-config.schema.json') +
      stringify(
        {
          release,
          source: origin,
          runConfigSchema: runConfigKey,
          apis: {
            providable: field('providable_apis'),
            routed: [...new Set(Object.values(routers))].sort(),
            routingTables: routers,
            internal: field('internal_apis'),
            all: apis.api_enum,
          },
        },
        { lineWidth: 0 },
      ),
  );

  const registry = readJson(join(from, 'providers.json'));
  const providers = {};
  for (const api of Object.keys(registry).sort()) {
    providers[api] = {};
    for (const type of Object.keys(registry[api]).sort()) {
      const p = registry[api][type];
      const models = byClassName(p.nested_models);
      const entry = {
        schema: addSchema(p.config_schema, p.config_class.split('.').pop(), { extra: p.extra, aliases: p.aliases }, models),
        dependencies: p.api_dependencies,
        optionalDependencies: p.optional_api_dependencies,
      };
      if (p.deprecation_error) entry.deprecationError = p.deprecation_error;
      if (p.deprecation_warning) entry.deprecationWarning = p.deprecation_warning;
      const secrets = secretFields(p.config_schema);
      if (secrets.length > 0) entry.secretFields = secrets;
      entry.sample = p.sample_run_config ?? {};
      providers[api][type] = entry;
    }
  }
  writeFileSync(join(out, 'providers.yaml'), header(release, 'providers.json') + stringify(providers, { lineWidth: 0 }));

  for (const name of readdirSync(join(from, 'distributions')).sort()) {
    const dir = join(from, 'distributions', name);
    mkdirSync(join(out, 'distributions', name), { recursive: true });
    for (const file of readdirSync(dir)) copyFileSync(join(dir, file), join(out, 'distributions', name, file));
  }
}

const sorted = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));
writeFileSync(join(staging, 'schemas.json'), `${JSON.stringify({ $defs: sorted }, null, 1)}\n`);
rmSync(target, { recursive: true, force: true });
renameSync(staging, target);
const size = JSON.stringify(sorted).length;
console.log(`configs/catalog: ${releases.length} releases (${releases.join(', ')}), ${Object.keys(defs).length} schemas (${Math.round(size / 1000)} kB)`);
