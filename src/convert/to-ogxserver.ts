// LLSD (v1alpha1 or v1alpha2) → `ogx.io/v1beta1` OGXServer, for `convert --to ogx.io/v1beta1`
// (issue 17 "Migration"; docs/ogxserver.md "Migrating to OGXServer"). A pure function over plain
// objects: the LLSD is read as the renderer reads it (schema, v1alpha1 converted, rules), then each
// part of its spec is written as the OGXServer field that renders the same thing. A field with no
// such counterpart is a warning naming the LLSD field and saying what to do instead: nothing is
// dropped silently. Problems are at the LLSD's own field paths (v1alpha1 ones for a v1alpha1 LLSD).
//
// The OGXServer gets another name (`<name>-ogx`): the operator refuses adoption by a CR of the same
// name, and a Deployment's selector cannot change in place. The adoption annotations name the
// LLSD, so its PVC and Service are kept (the operator adopts them).
import { distributions, newestRelease, ogxDivergences, ogxServerReleases } from '../catalog/catalog.js';
import { shippedCatalog } from '../catalog/distributions.js';
import { catalogBase } from '../core/base-config.js';
import { parseReleaseNumber } from '../lib/release-number.js';
import { ogxTypedApis, ogxTypedProviders, type OgxTypedField, type OgxTypedProvider } from '../catalog/ogx-providers.js';
import { compareVersions, isOgxServerRelease, profileFor, releaseSupport } from '../catalog/versions.js';
import { findBaseEntry, newProviderEntry, overlay, providerKeys, resolveProviderType, type ConfigProvider, type ResolvedType } from '../llsd/providers.js';
import { envName, isSecretLeaf, placeholder, selectorOf } from '../core/secrets.js';
import { askedRelease, namedRelease } from '../core/target.js';
import { annotation, formatFieldPath, type KrmObject } from '../krm/item.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import { conversionAnnotation } from '../llsd/conversion.js';
import { nonFiniteNumber } from '../lib/finite-numbers.js';
import { isError, type FieldProblem } from '../lib/issues.js';
import { llsdReaders, type Llsd, type LlsdVersion, type ProviderEntry } from '../llsd/llsd.js';
import { providerApis } from '../llsd/llsd-v1alpha2.js';
import { ogxApiVersion, ogxKind, parseOgxServer, type OgxServer } from '../ogx/ogxserver.js';
import { planOgxServer } from '../ogx/plan.js';
import { isLiteral } from '../ogx/credentials.js';
import { ogxProviderIds } from '../ogx/rules.js';
import { isCredentialName } from '../lib/url-credentials.js';
import { inventoryOf } from '../krm/inventory.js';
import { fitName } from '../lib/names.js';
import {
  carryEmbeddingModels, convertDisabled, convertNetwork, convertResources, convertStorage, convertTrust, convertWorkload, type Source,
} from './to-ogxserver-fields.js';

type Plain = Record<string, unknown>;
type Path = Array<string | number>;

export const adoptStorageAnnotation = 'ogx.io/adopt-storage';
export const adoptNetworkingAnnotation = 'ogx.io/adopt-networking';

/**
 * The converted object (the input itself when there is an error), the objects written beside it
 * (the `spec.baseConfig` ConfigMap that carries embedding models), what the user must know, and the
 * LLSD field each OGXServer field came from (`sourceOf`, for the results of checking the output).
 */
export interface OgxConversion {
  object: Plain;
  beside: Plain[];
  problems: FieldProblem[];
  sourceOf: (path: Path) => Path;
}

/** The longest OGXServer name: the operator names objects `<name>-prometheus-rules` (its webhook checks the length). */
const maxNameLength = 46;
const nameSuffix = '-ogx';

/**
 * An LLSD as an OGXServer. Errors when the LLSD itself is invalid (the renderer's own messages) or
 * when something it sets cannot be carried at all; warnings for each field left behind.
 */
export function toOgxServer(object: KrmObject): OgxConversion {
  const reader = Object.hasOwn(llsdReaders, object.apiVersion) ? llsdReaders[object.apiVersion as LlsdVersion] : undefined;
  const unchanged = (problems: FieldProblem[]): OgxConversion => ({ object, beside: [], problems, sourceOf: () => [] });
  if (!reader) return unchanged([{ path: ['apiVersion'], message: `must be ${listOf(Object.keys(llsdReaders))} to be converted to ${ogxApiVersion}` }]);
  const parsed = reader.parse(object);
  if (!parsed.ok) return unchanged(parsed.problems);
  // An OGXServer is applied as JSON: a number it cannot hold is refused as the LLSD conversions refuse it.
  const unheld = nonFiniteNumber(object, []);
  if (unheld) return unchanged([unheld]);
  const { llsd } = parsed;
  const problems: FieldProblem[] = [];
  const env: Plain[] = [];
  const spec: Plain = {};
  const release = releaseOf(llsd);
  const sources: Source[] = [...sameNamed, ...renamed];
  const customs: CustomProvider[] = [];

  setOwn(spec, 'distribution', { ...llsd.spec.distribution });
  const providers = convertProviders(llsd, release, env, problems, sources, customs);
  if (providers) spec.providers = providers;
  const resources = convertResources(llsd, providers, problems, sources);
  if (resources) spec.resources = resources;
  const storage = convertStorage(llsd, problems);
  if (storage) spec.storage = storage;
  const disabled = convertDisabled(llsd, problems);
  if (disabled) spec.disabledAPIs = disabled;
  if (llsd.spec.overrideConfig) spec.overrideConfig = { name: llsd.spec.overrideConfig.configMapName, key: 'config.yaml' };
  spec.network = convertNetwork(llsd, String(object.metadata.name), problems);
  const tls = convertTrust(llsd);
  if (tls) spec.tls = tls;
  const workload = convertWorkload(llsd, env, problems);
  if (workload) spec.workload = workload;
  problems.push(...externalProviderProblems(llsd));

  const metadata = convertMetadata(object, llsd, problems);
  const converted: Plain = { apiVersion: ogxApiVersion, kind: ogxKind, metadata, spec };
  const unfilled = customs.length > 0 ? parseOgxServer(converted as KrmObject) : undefined;
  if (unfilled?.ok) fillCustomSettings(unfilled.server, customs, problems);
  const check = parseOgxServer(converted as KrmObject);
  const beside = check.ok ? carryEmbeddingModels(check.server, spec, llsd, problems) : [];
  if (check.ok) problems.push(...defaultVectorProviderMoved(check.server, llsd));
  const local = [
    ...parsed.problems.filter((p) => !replacedWarning(p, object)),
    ...problems.map((problem) => reader.localise(problem)),
    ...v1alpha1Only(object),
  ];
  const sourceOf = (path: Path): Path => reader.localise({ path: llsdPathOf(sources, path), message: '' }).path;
  // The conversion's own errors say what to change; the OGXServer's rules would repeat them less clearly.
  if (local.some(isError)) return { ...unchanged(local), sourceOf };
  if (!check.ok) {
    // A bug of this conversion, told as an error rather than written out as an object that does not apply.
    const invalid = check.problems.filter(isError).map((p) => ({ path: sourceOf(p.path), message:
      `cannot be converted: the OGXServer would be invalid at \`${formatFieldPath(p.path)}\`: ${p.message}` }));
    return { ...unchanged([...local, ...invalid]), sourceOf };
  }
  return { object: converted, beside, problems: local, sourceOf };
}

/**
 * The default vector_io provider (`vector_stores.default_provider_id`, Responses memory) is the
 * first one the config lists. An LLSD lists its providers in the order written; the operator writes
 * an OGXServer's in a fixed order of types (then `custom`), so a conversion can move the default to
 * another provider: new vector stores that name none then go to another database (an outside probe:
 * qdrant then milvus became milvus then qdrant, with no word).
 */
function defaultVectorProviderMoved(server: OgxServer, llsd: Llsd): FieldProblem[] {
  const ours = llsd.providers.find((p) => p.api === 'vectorIo');
  const theirs = ogxProviderIds(server.spec).find((p) => p.api === 'vector_io');
  if (!ours || !theirs || theirs.id === ours.id) return [];
  return [
    {
      severity: 'warning', code: 'ogx-conversion',
      path: ours.path,
      message: `is the LLSD's default vector_io provider, but the OGXServer's is ${quote(theirs.id)} (${clip(theirs.providerType)}): the operator writes ` +
        `the typed providers in a fixed order of types, so vector stores created without naming a provider, and Responses memory, would go to ` +
        `${quote(theirs.id)}; name ${quote(ours.id)} where you create them, or write the vector_io providers as \`custom\` entries in the order you want`,
    },
  ];
}

/** OGXServer fields that hold the LLSD field of the same name, and everything under it. */
const sameNamed: Source[] = (['distribution', 'workload'] as const).map((field) => ({
  ogx: ['spec', field], llsd: ['spec', field], sameBelow: true,
}));
/** OGXServer fields whose LLSD field has another name or shape; the provider and model entries are added as they are converted. */
const renamed: Source[] = [
  { ogx: ['metadata'], llsd: ['metadata'], sameBelow: true },
  { ogx: ['spec', 'resources'], llsd: ['spec', 'resources'] },
  { ogx: ['spec', 'providers'], llsd: ['spec', 'providers'] },
  { ogx: ['spec', 'baseConfig'], llsd: ['spec', 'resources', 'models'] },
  { ogx: ['spec', 'overrideConfig'], llsd: ['spec', 'overrideConfig', 'configMapName'] },
  { ogx: ['spec', 'storage'], llsd: ['spec', 'storage'] },
  { ogx: ['spec', 'storage', 'kv'], llsd: ['spec', 'storage', 'kv'] },
  { ogx: ['spec', 'storage', 'sql'], llsd: ['spec', 'storage', 'sql'] },
  { ogx: ['spec', 'disabledAPIs'], llsd: ['spec', 'disabled'] },
  { ogx: ['spec', 'network'], llsd: ['spec', 'networking'] },
  { ogx: ['spec', 'network', 'port'], llsd: ['spec', 'networking', 'port'] },
  { ogx: ['spec', 'network', 'externalAccess'], llsd: ['spec', 'networking', 'expose'] },
  { ogx: ['spec', 'network', 'policy'], llsd: ['spec', 'networking', 'allowedFrom'] },
  { ogx: ['spec', 'network', 'tls'], llsd: ['spec', 'networking', 'tls'] },
  { ogx: ['spec', 'tls'], llsd: ['spec', 'networking', 'tls', 'caBundle'] },
  { ogx: ['spec', 'workload', 'autoscaling'], llsd: ['spec', 'workload', 'autoscaling'] },
  { ogx: ['spec', 'workload', 'overrides'], llsd: ['spec', 'workload', 'overrides'], sameBelow: true },
];

/** The LLSD field an OGXServer field came from: the longest recorded prefix of `path`, else `spec`. */
function llsdPathOf(sources: readonly Source[], path: Path): Path {
  let best: Source | undefined;
  for (const source of sources) {
    const prefix = source.ogx.every((segment, i) => path[i] === segment);
    if (prefix && source.ogx.length <= path.length && source.ogx.length > (best?.ogx.length ?? -1)) best = source;
  }
  if (!best) return ['spec'];
  return best.sameBelow ? [...best.llsd, ...path.slice(best.ogx.length)] : best.llsd;
}

// ---------------------------------------------------------------------------------------------
// metadata

/**
 * `<name>-ogx` (cut to 46 characters), the LLSD's namespace, labels and annotations, and the
 * adoption annotations naming the LLSD: its PVC when it has storage, its Service (and Ingress) always.
 */
function convertMetadata(object: KrmObject, llsd: Llsd, problems: FieldProblem[]): Plain {
  const name = newName(llsd.name);
  if (name !== `${llsd.name}${nameSuffix}`) {
    problems.push({ severity: 'warning', code: 'ogx-conversion', path: ['metadata', 'name'], message:
      `is too long for an OGXServer name with ${code(nameSuffix)} (at most ${maxNameLength} characters): the OGXServer is named ${quote(name)}` });
  }
  const metadata: Plain = { name };
  if (llsd.namespace !== undefined) metadata.namespace = llsd.namespace;
  if (object.metadata.labels !== undefined) metadata.labels = { ...object.metadata.labels };
  const annotations: Record<string, string> = {};
  for (const [key, value] of Object.entries(object.metadata.annotations ?? {})) {
    // Kept as written (`v1.2.2`, `1.2.4+rhaiv.0`): the OGXServer's plan reads it with the same parser.
    const asked = key === annotation.release ? parseReleaseNumber(value) : undefined;
    if (key === annotation.release && (!asked || !isOgxServerRelease(asked.release))) {
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: ['metadata', 'annotations', key],
        message: `is dropped: ${quote(value)} is no OGX release, and an OGXServer renders only against ${listOf(ogxServerReleases())} and their ` +
          `patch releases (without the annotation: its distribution's default release); add it back with one of those to pin another`,
      });
    } else if (key === conversionAnnotation) {
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: ['metadata', 'annotations', key],
        message: 'is dropped: it holds fields of another LLSD version, which OGXServer has none of either; convert the LLSD to that version first to see them',
      });
    } else annotations[key] = value;
  }
  if (llsd.spec.workload?.storage !== undefined) annotations[adoptStorageAnnotation] ??= llsd.name;
  annotations[adoptNetworkingAnnotation] ??= llsd.name;
  metadata.annotations = annotations;
  return metadata;
}

/**
 * `<name>-ogx`; a name too long for that is cut and given 8 hex of its hash, as generated object
 * names are (fitName), so two long LLSD names never become one OGXServer name.
 */
const newName = (name: string): string => fitName(name, nameSuffix, maxNameLength);

// ---------------------------------------------------------------------------------------------
// release: which config keys the LLSD's fields become (the same choice the renderer makes)

/**
 * The release the LLSD renders against, as far as it is known without the registry: the annotation
 * or the image tag (as the plan reads them), else the named distribution's default, else the newest.
 */
function releaseOf(llsd: Llsd): { release: string; catalogRelease: string } {
  const { name, image } = llsd.spec.distribution;
  const named = name !== undefined && Object.hasOwn(distributions(), name) ? distributions()[name]?.defaultRelease : undefined;
  const release = askedRelease(llsd.annotations, image).release ?? named ?? newestRelease();
  return { release, catalogRelease: releaseSupport(release)?.catalogRelease ?? newestRelease() };
}

// ---------------------------------------------------------------------------------------------
// providers

/**
 * The OGXServer `spec.providers` key of an LLSD provider API: the one that fills the same config API
 * (`vectorIo` → `vectorIo`); safety and telemetry have none.
 */
const ogxApiOf = (api: ProviderEntry['api']): string | undefined => ogxTypedApis().find((a) => a.api === providerApis[api])?.field;

/** The CR field kinds an LLSD value can be written as; objects, maps and decimals are left to `custom`. */
const convertible = new Set(['string', 'int', 'bool', 'strings', 'enum', 'secret']);

/**
 * The OGXServer typed provider for an LLSD provider of `type` under the config API `api`: the table's
 * provider whose type the server runs as `type` (the operator's `inline::rag-runtime` is OGX's
 * `inline::file-search`, configs/ogx-divergences.yaml), or undefined.
 */
function typedProviderOf(api: string, type: string): OgxTypedProvider | undefined {
  const serverType = (operator: string): string => ogxDivergences().providerTypes.find((r) => r.api === api && r.operator === operator)?.server ?? operator;
  return ogxTypedProviders().find((p) => p.api === api && serverType(p.type) === type);
}

/** One config key of an LLSD provider, as the renderer would write it: a value, or a Secret key. */
type ConfigValue = { value: unknown } | { secret: { name: string; key: string } };

function convertProviders(
  llsd: Llsd,
  release: { release: string; catalogRelease: string },
  env: Plain[],
  problems: FieldProblem[],
  sources: Source[],
  customs: CustomProvider[],
): Plain | undefined {
  const out: Plain = {};
  for (const provider of llsd.providers) {
    const api = ogxApiOf(provider.api);
    if (api === undefined) {
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: provider.path,
        message: `is dropped: OGXServer has no ${provider.api} providers; to keep it, write the whole config.yaml in a ConfigMap and set ` +
          `\`spec.overrideConfig\``,
      });
      continue;
    }
    const resolved = resolveProviderType(provider, release);
    if (!resolved.ok) {
      problems.push(resolved.problem);
      continue;
    }
    const config = providerConfig(provider, resolved.resolved, release.release, env, problems);
    if (config === undefined) continue;
    const typed = typedProviderOf(providerApis[provider.api], resolved.resolved.type);
    const typedAs = typedEntry(provider.id, typed, config);
    const [group, list, entry] = typedAs ?? customEntry(provider, resolved.resolved.type, config);
    if (!typedAs) customs.push({ entry, provider, type: resolved.resolved.type, api: providerApis[provider.api] });
    const apiOut = (out[api] ??= {}) as Plain;
    const groupOut = (apiOut[group] ??= {}) as Plain;
    const entries = (groupOut[list] ??= []) as Plain[];
    sources.push({ ogx: ['spec', 'providers', api, group, list, entries.length], llsd: provider.path });
    entries.push(entry);
  }
  for (const api of Object.keys(out)) {
    const llsdApi = (Object.keys(providerApis) as Array<ProviderEntry['api']>).find((k) => ogxApiOf(k) === api) as ProviderEntry['api'];
    const lost = baseProvidersLost(llsd, release.release, llsdApi);
    if (lost.length === 0) continue;
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: ['spec', 'providers', llsdApi],
      message: `replaces the distribution's ${providerApis[llsdApi]} providers in the OGXServer (an LLSD lays its providers over them), so ` +
        `${listOf(lost.map((id) => code(id)))} ${lost.length === 1 ? 'is' : 'are'} no longer configured; add those you use to \`spec.providers.${api}\` as ` +
        `\`custom\` providers`,
    });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The providers of the named distribution's base config for `api` that the server runs and the
 * LLSD does not override: literal ids, and conditional ones (`${env.X:+id}`) whose X the LLSD sets.
 */
function baseProvidersLost(llsd: Llsd, release: string, api: ProviderEntry['api']): string[] {
  const name = llsd.spec.distribution.name;
  const entry = name !== undefined && Object.hasOwn(shippedCatalog(), name) ? shippedCatalog()[name] : undefined;
  // The base the plan uses: the distribution's own release, or its newest of the release's line.
  const chosen = entry && namedRelease(name as string, entry, Object.keys(entry.releases).sort(compareVersions), { release }, []);
  const base = chosen?.ok ? catalogBase(chosen.pinned) : undefined;
  const list = isPlainObject(base) && isPlainObject(base.providers) ? base.providers[providerApis[api]] : undefined;
  const ours = new Set(llsd.providers.filter((p) => p.api === api).map((p) => p.id));
  const env = new Set((llsd.spec.workload?.overrides?.env ?? []).map((e) => e.name));
  const ids = (Array.isArray(list) ? list : []).map((p) => (isPlainObject(p) ? p.provider_id : undefined));
  return ids.flatMap((id) => {
    if (typeof id !== 'string') return [];
    const conditional = /^\$\{env\.([A-Za-z0-9_]+):\+([^}]*)\}$/.exec(id);
    const active = conditional ? (env.has(conditional[1] as string) ? conditional[2] : undefined) : id.includes('${') ? undefined : id;
    return active !== undefined && active !== '' && !ours.has(active) ? [active] : [];
  });
}

/**
 * The config keys the renderer writes for the provider (the same keys: `endpoint` to the release's
 * URL key, `apiKey` to its credential key, …), or undefined when a field has no key in that release
 * (the LLSD would not render either; the error says so).
 */
function providerConfig(
  provider: ProviderEntry,
  resolved: ResolvedType,
  release: string,
  env: Plain[],
  problems: FieldProblem[],
): Map<string, ConfigValue> | undefined {
  const keys = providerKeys(resolved);
  const config = new Map<string, ConfigValue>();
  let ok = true;
  for (const [key, value] of Object.entries(provider.settings ?? {})) {
    if (isSecretLeaf(value)) config.set(key, { secret: value.secretKeyRef });
    else config.set(key, { value: withSecretsAsEnv(value, provider.id, [key], env) });
  }
  if (provider.endpoint !== undefined) {
    if (keys.urlKey === null) {
      problems.push({
        path: [...provider.path, 'endpoint'],
        message: `cannot be converted: ${resolved.type} has no URL setting in release ${release}; ` +
          `remove \`endpoint\` or pass the provider's own keys in \`settings\``,
      });
      ok = false;
    } else config.set(keys.urlKey, { value: completeEndpoint(provider, resolved, keys.urlKey, release, problems) });
  }
  if (provider.apiKey !== undefined) {
    if (keys.credentialKey === null) {
      problems.push({ path: [...provider.path, 'apiKey'], message:
        `cannot be converted: ${resolved.type} takes no API key in release ${release}; use \`secretRefs\` with the provider's own keys` });
      ok = false;
    } else config.set(keys.credentialKey, { secret: selectorOf(provider.apiKey) });
  }
  if (provider.host !== undefined) config.set('host', typeof provider.host === 'string' ? { value: provider.host } : { secret: provider.host.secretKeyRef });
  for (const [key, ref] of Object.entries(provider.secretRefs ?? {})) config.set(key, { secret: selectorOf(ref) });
  return ok ? config : undefined;
}

/**
 * A settings value with each nested `{secretKeyRef}` leaf as an `${env.X}` placeholder, and X
 * added to the pod env from the Secret: OGXServer `secretRefs` take top-level keys only, and
 * `settings` reach config.yaml as written (the operator copies them). The env name is the renderer's.
 */
function withSecretsAsEnv(value: unknown, id: string, keys: string[], env: Plain[]): unknown {
  if (Array.isArray(value)) return value.map((child, i) => withSecretsAsEnv(child, id, [...keys, String(i)], env));
  if (!isPlainObject(value)) return value;
  const out: Plain = {};
  for (const [key, child] of Object.entries(value)) {
    if (isSecretLeaf(child)) {
      const name = envName(id, ...keys, key);
      env.push({ name, valueFrom: { secretKeyRef: { ...child.secretKeyRef } } });
      setOwn(out, key, placeholder(name));
    } else setOwn(out, key, withSecretsAsEnv(child, id, [...keys, key], env));
  }
  return out;
}

/** As the renderer: an inference `base_url` given as a bare host gets `/v1` (0.4.0+ read the full URL). */
function completeEndpoint(provider: ProviderEntry, resolved: ResolvedType, urlKey: string, release: string, problems: FieldProblem[]): string {
  const endpoint = provider.endpoint as string;
  if (urlKey !== 'base_url' || resolved.api !== 'inference' || !profileFor(release)?.inferenceUrlHasApiPrefix || !URL.canParse(endpoint)) return endpoint;
  const { pathname } = new URL(endpoint);
  if (pathname !== '/' && pathname !== '') return endpoint;
  const completed = `${endpoint.replace(/\/$/, '')}/v1`;
  problems.push({ severity: 'info', path: [...provider.path, 'endpoint'], message:
    `became ${quote(completed)}, the URL the LLSD renders to (the server reads the full URL including /v1)` });
  return completed;
}

/** The provider as a typed OGXServer provider, when every config key is one of its fields with a value it takes. */
function typedEntry(id: string, typed: OgxTypedProvider | undefined, config: Map<string, ConfigValue>): [string, string, Plain] | undefined {
  if (!typed) return undefined;
  const fields = typed.conversionFields.filter((f) => convertible.has(f.kind));
  if ([...config.keys()].some((key) => !fields.some((f) => f.key === key))) return undefined;
  const entry: Plain = { id };
  // In the table's order, so the output does not depend on the order of the LLSD's fields.
  for (const f of fields) {
    const value = config.get(f.key);
    if (value === undefined) continue;
    if (!fits(f, value)) return undefined;
    setOwn(entry, f.field, 'secret' in value ? { ...value.secret } : value.value);
  }
  if (!fields.every((f) => !f.required || Object.hasOwn(entry, f.field))) return undefined;
  // The CRD wants one of these (qdrant: `url` or `host`; a `location`-only qdrant stays custom).
  const oneOf = fields.filter((f) => typed.oneOf.includes(f.key));
  if (oneOf.length > 0 && oneOf.every((f) => entry[f.field] === undefined)) return undefined;
  return [typed.placement, typed.field, entry];
}

function fits(field: OgxTypedField, value: ConfigValue): boolean {
  if (field.kind === 'secret') return 'secret' in value;
  if ('secret' in value) return false;
  const v = value.value;
  switch (field.kind) {
    case 'enum':
      return typeof v === 'string' && (field.values ?? []).includes(v);
    case 'string':
      return typeof v === 'string' && v !== '';
    case 'int':
      return Number.isInteger(v) && (v as number) >= (field.min ?? 1) && (field.max === undefined || (v as number) <= field.max);
    case 'bool':
      return typeof v === 'boolean';
    default:
      return Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s !== '');
  }
}

/** `custom`: the type, `settings` as the renderer writes them, and the Secret keys in `secretRefs`. */
function customEntry(provider: ProviderEntry, type: string, config: Map<string, ConfigValue>): [string, string, Plain] {
  const entry: Plain = { id: provider.id, type };
  const settings: Plain = {};
  const secretRefs: Plain = {};
  for (const [key, value] of config) {
    if ('secret' in value) setOwn(secretRefs, key, { ...value.secret });
    else setOwn(settings, key, value.value);
  }
  if (Object.keys(secretRefs).length > 0) entry.secretRefs = secretRefs;
  if (Object.keys(settings).length > 0) entry.settings = settings;
  return [type.startsWith('inline::') ? 'inline' : 'remote', 'custom', entry];
}

/** A `custom` entry of the OGXServer, the LLSD provider it came from, its type and config API (`vector_io`). */
interface CustomProvider {
  entry: Plain;
  provider: ProviderEntry;
  type: string;
  api: string;
}

/**
 * The `settings` of each `custom` provider filled as the LLSD's config fills its provider
 * (src/llsd/generate.ts placeProvider, with the same functions): an id and type of the base config
 * is that entry with the settings laid over it; another gets the release's sample config
 * (`sample_run_config`: pgvector's and faiss's `persistence`, sqlite-vec's `db_path`) with the
 * storage of a base entry of its type, a storage location another entry uses renamed after its id.
 * The LLSD's render does this, but an OGXServer's custom provider carries only the keys written, so
 * without it `build` refuses what the LLSD rendered. The sample and base are those of the release
 * the OGXServer renders at (its plan), which may be newer than the LLSD's (`~/.ogx`, not `~/.llama`).
 * Sample values that are env references stay references (one with no default is left out, as the
 * LLSD leaves it out); keys the entry has as `secretRefs` are not written. Each provider given keys
 * gets a warning naming them (where its data is may differ from the LLSD's release: `~/.llama`).
 * Nothing is done without a base convert can read (an image's labels).
 */
function fillCustomSettings(server: OgxServer, customs: readonly CustomProvider[], problems: FieldProblem[]): void {
  const planned = planOgxServer(server, inventoryOf([]));
  const plan = planned.ok && planned.plan.mode === 'generated' ? planned.plan : undefined;
  if (!plan?.baseConfig) return;
  const base = { profile: plan.profile, baseConfig: plan.baseConfig, distributionName: plan.distributionName };
  const baseProviders = isPlainObject(plan.baseConfig.providers) ? plan.baseConfig.providers : {};
  const placed = new Map<string, ConfigProvider[]>();
  for (const { entry, provider, type, api } of customs) {
    // The type as the OGXServer's release has it; one it lacks is left to `build`, which refuses it at the provider.
    const resolved = resolveProviderType({ ...provider, provider: type }, plan);
    if (!resolved.ok) continue;
    const settings = isPlainObject(entry.settings) ? entry.settings : {};
    const built: ConfigProvider = { provider_id: provider.id, provider_type: type, config: settings };
    const list = baseProviders[api];
    const entries = [...(Array.isArray(list) ? list.filter(isPlainObject) as ConfigProvider[] : []), ...(placed.get(api) ?? [])];
    const at = findBaseEntry(entries, provider.id);
    const same = at >= 0 && entries[at]?.provider_type === type;
    const full = same ? overlay(entries[at] as ConfigProvider, built) : newProviderEntry(entries.filter((_, i) => i !== at), built, resolved.resolved, base);
    placed.set(api, [...(placed.get(api) ?? []), full]);
    // The keys written first, as written; then the filled ones. None that is a `secretRefs` key.
    const config = full.config ?? {};
    const secretKeys = isPlainObject(entry.secretRefs) ? entry.secretRefs : {};
    const filled: Plain = {};
    // A credential of the base the user did not write (vLLM's `api_token: ${env.VLLM_API_TOKEN:=fake}`):
    // its default is a value the OGXServer refuses in `settings` (ogxLiteralCredentials), so it is left out.
    const leftOut: string[] = [];
    for (const key of [...Object.keys(settings), ...Object.keys(config)]) {
      if (!Object.hasOwn(config, key) || Object.hasOwn(secretKeys, key) || Object.hasOwn(filled, key) || leftOut.includes(key)) continue;
      if (!Object.hasOwn(settings, key) && isCredentialName(key) && isLiteral(config[key])) leftOut.push(key);
      else setOwn(filled, key, config[key]);
    }
    const added = Object.keys(filled).filter((key) => JSON.stringify(filled[key]) !== JSON.stringify(settings[key]));
    if (added.length === 0 && leftOut.length === 0) continue;
    entry.settings = filled;
    if (Object.keys(filled).length === 0) delete entry.settings;
    const source = same ? `the ${quote(provider.id)} entry of the base config` : `the sample config of ${type}`;
    const from = `${source} of ${plan.distributionName} at OGX ${plan.release}`;
    const [them, they] = added.length === 1 ? ['it', 'it points'] : ['them', 'they point'];
    const keys = (list: string[]): string => listOf(list, { each: (key) => code(key), last: 'and' });
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: provider.path,
      message: `becomes a \`custom\` provider, which has only the config keys written, so ` +
        (added.length === 0 ? '' : `its \`settings\` also give ${keys(added)} as the LLSD's config.yaml has ${them}: from ${from}, ` +
          `the release the OGXServer renders at; check that ${they} where the provider's data is`) +
        (leftOut.length === 0 ? '' :
          `${added.length === 0 ? '' : '; '}${keys(leftOut)} of ${from} ${leftOut.length === 1 ? 'is' : 'are'} left out: ` +
          `the LLSD's config.yaml gives ${leftOut.length === 1 ? 'it' : 'them'} a default value, which an OGXServer's \`settings\` must not hold for a ` +
          `credential, so the provider's own default applies; give ${leftOut.length === 1 ? 'it' : 'them'} in \`secretRefs\` if the provider needs one`),
    });
  }
}

/** `spec.externalProviders`: OGXServer installs no provider packages. */
function externalProviderProblems(llsd: Llsd): FieldProblem[] {
  return Object.entries(llsd.spec.externalProviders ?? {}).flatMap(([api, list]) =>
    (list ?? []).map((external, i) => ({
      severity: 'warning' as const, code: 'ogx-conversion' as const,
      path: ['spec', 'externalProviders', api, i],
      message: `is dropped: OGXServer cannot install a provider from an image; build a distribution image that contains ${quote(external.image)}'s package, ` +
        `set \`spec.distribution.image\` to it, and add the provider as \`custom\` under \`spec.providers\``,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// v1alpha1 fields with no v1alpha2 counterpart (the v1alpha2 reader warns about them in its own terms)

const containerNamePath = 'spec.server.containerSpec.name';
const userConfigNamespacePath = 'spec.server.userConfig.configMapNamespace';

/** The reader's warning about a v1alpha1 field that `v1alpha1Only` tells in OGXServer terms instead. */
const replacedWarning = (problem: FieldProblem, object: KrmObject): boolean =>
  object.apiVersion.endsWith('/v1alpha1') && [containerNamePath, userConfigNamespacePath].includes(problem.path.join('.'));

function v1alpha1Only(object: KrmObject): FieldProblem[] {
  if (!object.apiVersion.endsWith('/v1alpha1')) return [];
  const spec = (object as { spec?: { server?: { containerSpec?: { name?: unknown }; userConfig?: { configMapNamespace?: unknown } } } }).spec;
  const problems: FieldProblem[] = [];
  const container = spec?.server?.containerSpec?.name;
  if (container !== undefined) {
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: containerNamePath.split('.'),
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the v1alpha1 schema makes it a string; String() only narrows the type
      message: `is dropped: the OGXServer's container is always named \`ogx\`, not ${quote(String(container))}; update anything that names the container ` +
        `(\`kubectl logs -c\`, patches)`,
    });
  }
  const namespace = spec?.server?.userConfig?.configMapNamespace;
  if (namespace !== undefined && namespace !== object.metadata.namespace) {
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: userConfigNamespacePath.split('.'),
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the v1alpha1 schema makes it a string; String() only narrows the type
      message: `is dropped: an OGXServer reads \`spec.overrideConfig\` from its own namespace only; copy the ConfigMap from ${quote(String(namespace))} there`,
    });
  }
  return problems;
}
