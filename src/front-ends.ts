// The input APIs llsd-render renders, by kind and apiVersion (STYLE §5, as kyaml's
// VersionedAPIProcessor): a table, not if-chains. Each entry is a front end (docs/development.md): the
// stages that differ between APIs (parse, references, plan, generate, objects, the summary). The
// pipeline (src/process.ts) runs them in one fixed order for every front end, then the checks all
// front ends share. The readers (src/cli) and the pipeline ask this table what is rendered, so a new
// input API or version is added here once.
import type { ImageLookup } from './catalog/image-labels.js';
import type { RenderOptions } from './core/render-config.js';
import { checkOgxScaling } from './core/server-settings.js';
import { servedEnvProblems, type ServedEnv } from './core/override-env.js';
import { imageFacts } from './core/workload.js';
import { ogxHasRuntimeConfig } from './core/ogx-workload.js';
import { ogxObjects } from './catalog/catalog.js';
import { crFieldOf } from './llsd/cr-fields.js';
import { ogxFieldOf } from './ogx/cr-fields.js';
import type { Inventory } from './krm/inventory.js';
import type { KrmObject } from './krm/item.js';
import { isError, type FieldProblem } from './lib/issues.js';
import { clip, quote } from './lib/quote.js';
import { generateConfig } from './llsd/generate.js';
import type { GeneratedConfig } from './core/config-file.js';
import { llsdKind, llsdNearMiss, llsdReaders, supportedLlsdVersions, type LlsdReader } from './llsd/llsd.js';
import { group as llsdGroup } from './llsd/llsd-v1alpha2.js';
import { planLlsd, type Plan } from './llsd/plan.js';
import type { ServerTarget } from './core/target.js';
import { serverOf, type ServedConfig } from './core/judge.js';
import { checkReferences } from './llsd/references.js';
import { exposureProblems } from './manifests/exposure.js';
import { ogxObjectProblems, renderObjects, renderOgxObjects } from './manifests/index.js';
import { networkPolicyProblems } from './manifests/network-policy.js';
import { generateOgxConfig, unregistrableModels } from './ogx/generate.js';
import { isOgxServerObject, ogxApiVersion, ogxGroup, ogxKind, ogxNearMiss, parseOgxServer, type OgxServer } from './ogx/ogxserver.js';
import { planOgxServer, type OgxPlan } from './ogx/plan.js';
import { checkOgxReferences } from './ogx/references.js';
import { praxisProblems } from './ogx/praxis.js';

type Path = FieldProblem['path'];

export type { ServedConfig };

/**
 * One version of one input API: its stages, each a pure function over plain data. `Parsed` is the
 * CR as its schema reads it, `P` its plan and `C` its generated config. The table holds front ends
 * of different types; each one's stages only ever receive what its own earlier stages returned.
 */
export interface FrontEnd<Parsed = unknown, P extends ServerTarget = ServerTarget, C = unknown> {
  /** Schema and rules (those that name distributions read the render's, `options.distributions`); the problems are at this version's field paths. */
  parse(object: KrmObject, options: RenderOptions): { ok: true; value: Parsed; problems: FieldProblem[] } | { ok: false; problems: FieldProblem[] };
  /** A problem of a later stage at this version's field path (a v1alpha1 LLSD renders as its v1alpha2 conversion). */
  localise(problem: FieldProblem): FieldProblem;
  /** Secrets, ConfigMaps and other objects the CR names, against the input. */
  references(parsed: Parsed, inventory: Inventory, options: RenderOptions): FieldProblem[];
  /** The image as the CR writes it, for the info that says where its base config came from. */
  image(parsed: Parsed): string;
  /** Release, image and base config; `pendingImage` when the labels of an image must be looked up first. */
  plan(parsed: Parsed, inventory: Inventory, options: RenderOptions, lookups: ReadonlyMap<string, ImageLookup> | undefined): Planned<P>;
  /** The config.yaml and the problems of the plan against the options; not `ok`, the render of this CR stops. */
  generate(plan: P, options: RenderOptions): { ok: true; config: C; problems: FieldProblem[] } | { ok: false; problems: FieldProblem[] };
  objects(plan: P, config: C, options: RenderOptions): KrmObject[];
  /** The workload overrides whose volumes and mounts must fit the Deployment's. */
  overrides(plan: P): { volumes?: unknown[] | undefined; volumeMounts?: unknown[] | undefined; env?: unknown[] | undefined } | undefined;
  /** The config the pod reads and the CR field behind each of its paths; none when it is the image's own. */
  served(plan: P, config: C): { config: ServedConfig; fieldOf: (configPath: string, parsed: Record<string, unknown>) => Path } | undefined;
  /** The field naming an overrideConfig's ConfigMap: where a problem of that config.yaml is told. */
  overridePath: Path;
  /** The info result of a CR rendered. */
  summary(plan: P, config: C): string;
}

export type Planned<P> = { ok: true; plan: P; problems?: FieldProblem[] } | { ok: false; problems: FieldProblem[]; pendingImage?: string };

/** One kind: its group, its front end by apiVersion, and what is said of an object that is not quite it. */
export interface InputApi {
  group: string;
  /** The CR as messages name it ("rename the LLSD or the other object"). */
  noun: string;
  versions: Readonly<Record<string, FrontEnd>>;
  /** The problem with an apiVersion of `group` that is not in `versions`. */
  unsupported(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem;
  /** An object of another kind or group that was likely meant as this API: passed through, it would render nothing. */
  nearMiss(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem | undefined;
}

const llsdFrontEnd = (reader: LlsdReader): FrontEnd<Plan['llsd'], Plan, GeneratedConfig> => ({
  parse: (object) => {
    const parsed = reader.parse(object);
    return parsed.ok ? { ok: true, value: parsed.llsd, problems: parsed.problems } : parsed;
  },
  localise: (problem) => reader.localise(problem),
  references: checkReferences,
  image: (llsd) => String(llsd.spec.distribution.image),
  plan: (llsd, inventory, options, lookups) => planLlsd(llsd, inventory, options.distributions, { lookups, pinDigest: options.registry.pinDigest }),
  generate: (plan, options) => {
    // Exposure and NetworkPolicy: the CR against the render options (host names, Gateway, peers).
    const networking = [...exposureProblems(plan, options), ...networkPolicyProblems(plan, options)];
    const image = imageFacts(plan);
    const served: ServedEnv = { configPath: image.configPathEnv ? [image.configPathEnv] : [], port: image.portEnv, portField: 'spec.networking.port' };
    const generated = generateConfig(plan);
    const env = servedEnvProblems(plan.llsd.spec.workload?.overrides?.env, { ...served, secrets: generated.ok ? generated.config.env : [] });
    const problems = [...networking, ...env, ...generated.problems];
    return generated.ok && !networking.some(isError) && env.length === 0 ? { ok: true, config: generated.config, problems } : { ok: false, problems };
  },
  objects: renderObjects,
  overrides: (plan) => plan.llsd.spec.workload?.overrides,
  served: (plan, config) => ({
    config: config.fromConfigMap ? config : { ...config, base: plan.baseConfig },
    fieldOf: (configPath, parsed) => crFieldOf(configPath, plan, parsed),
  }),
  overridePath: ['spec', 'overrideConfig', 'configMapName'],
  summary: (plan, config) => {
    const target = `${targetOf(plan)}${plan.releaseNote ? `; ${plan.releaseNote}` : ''}`;
    return config.fromConfigMap
      ? `uses config.yaml from the ConfigMap ${quote(config.fromConfigMap)} (overrideConfig) for ${target}`
      : `generated config.yaml with ${generatedCounts(config, 'LLSD')} for ${target}`;
  },
});

const ogxOverridePath = ['spec', 'overrideConfig', 'name'];

/**
 * An OGXServer: its own schema and rules, its plan, the operator's generation corrected for the
 * release (none when the CR sets nothing to generate), its objects.
 */
const ogxFrontEnd: FrontEnd<OgxServer, OgxPlan, GeneratedConfig | undefined> = {
  parse: (object, options) => {
    // The webhook's distribution-name check knows the names the RenderConfig adds, as the plan does.
    const parsed = parseOgxServer(object, { catalog: options.distributions });
    return parsed.ok ? { ok: true, value: parsed.server, problems: parsed.problems } : parsed;
  },
  localise: (problem) => problem,
  references: checkOgxReferences,
  image: (server) => String(server.spec.distribution.image),
  plan: (server, inventory, options, lookups) => planOgxServer(server, inventory, options.distributions, { lookups, pinDigest: options.registry.pinDigest }),
  generate: (plan, options) => {
    const generated = plan.mode === 'generated' ? generateOgxConfig(plan) : undefined;
    if (generated && !generated.ok) return generated;
    const config = generated?.config;
    // The config the pod reads; with none of its own (mode none), the image's, which is the base's.
    const served = config?.value ?? plan.overrideConfig?.value ?? plan.baseConfig ?? {};
    const image = imageFacts(plan);
    // The config path variables are ours only when the pod mounts a config of ours (not in mode none).
    const configPath = ogxHasRuntimeConfig(plan) ? [image.configPathEnv, ogxObjects().container.configEnv].filter((n): n is string => !!n) : [];
    const env = servedEnvProblems(plan.server.spec.workload?.overrides?.env, {
      configPath,
      port: image.portEnv,
      portField: 'spec.network.port',
      secrets: config?.env ?? [],
    });
    const problems = [
      ...(generated?.problems ?? []),
      ...env,
      ...unregistrableModels(plan),
      ...checkOgxScaling(served, plan),
      ...ogxObjectProblems(plan, config, options),
      ...praxisProblems(plan, config, options),
    ];
    return problems.some(isError) ? { ok: false, problems } : { ok: true, config, problems };
  },
  objects: renderOgxObjects,
  overrides: (plan) => plan.server.spec.workload?.overrides,
  served: (plan, config) => {
    if (config) return { config: { ...config, base: plan.baseConfig }, fieldOf: (configPath, parsed) => ogxFieldOf(configPath, plan.server.spec, parsed) };
    // No config of its own: the pod reads the image's, judged with the pod's env as any other.
    if (!plan.overrideConfig) {
      if (!plan.baseConfig) return undefined;
      return { config: { value: plan.baseConfig, base: plan.baseConfig, fromImage: true }, fieldOf: () => ['spec', 'distribution'] };
    }
    return { config: { value: plan.overrideConfig.value, fromConfigMap: plan.overrideConfig.configMapName }, fieldOf: () => ogxOverridePath };
  },
  overridePath: ogxOverridePath,
  summary: (plan, config) => {
    const target = targetOf(plan);
    if (config) return `generated config.yaml with ${generatedCounts(config, ogxKind)} for ${target}`;
    if (plan.overrideConfig) return `uses config.yaml from the ConfigMap ${quote(plan.overrideConfig.configMapName)} (overrideConfig) for ${target}`;
    return `sets no providers, resources, storage or disabledAPIs, so the image's own config.yaml is used, as the operator does, for ${target}`;
  },
};

/**
 * The table. A v1alpha1 LLSD renders as the operator deployed it: checked with the v1alpha1 schema,
 * converted to v1alpha2, then read as v1alpha2, with every problem at its v1alpha1 field.
 */
const inputApis: Readonly<Record<string, InputApi>> = {
  [llsdKind]: {
    group: llsdGroup,
    noun: 'LLSD',
    versions: Object.fromEntries(supportedLlsdVersions.map((version) => [version, llsdFrontEnd(llsdReaders[version])])),
    unsupported: (object) => ({
      path: ['apiVersion'],
      message: `apiVersion ${quote(object.apiVersion)} is not supported for ${llsdKind}; use ${supportedLlsdVersions.join(' or ')}`,
    }),
    nearMiss: llsdNearMiss,
  },
  [ogxKind]: {
    group: ogxGroup,
    noun: ogxKind,
    versions: { [ogxApiVersion]: ogxFrontEnd },
    // ogxNearMiss says what is wrong with any other version of ogx.io.
    unsupported: (object) => ogxNearMiss(object) ?? internal(object),
    nearMiss: (object) => (isOgxServerObject(object) ? undefined : ogxNearMiss(object)),
  },
};

/** The API of an object llsd-render renders (its kind, with any version of the kind's group). */
export function inputApiOf(object: Pick<KrmObject, 'apiVersion' | 'kind'>): InputApi | undefined {
  const api = Object.hasOwn(inputApis, object.kind) ? inputApis[object.kind] : undefined;
  return api && object.apiVersion.startsWith(`${api.group}/`) ? api : undefined;
}

/** An LLSD (any version) or an OGXServer: rendered, never passed through or applied itself. */
export const isRenderedObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean => inputApiOf(object) !== undefined;

/** The front end that renders `object` (an object `isRenderedObject` took), or the problem with its apiVersion. */
export function frontEndOf(object: Pick<KrmObject, 'apiVersion' | 'kind'>): { frontEnd: FrontEnd } | { problem: FieldProblem } {
  const api = inputApiOf(object);
  if (!api) return internal(object);
  const frontEnd = Object.hasOwn(api.versions, object.apiVersion) ? api.versions[object.apiVersion] : undefined;
  return frontEnd ? { frontEnd } : { problem: api.unsupported(object) };
}

/** The first input API `object` was likely meant as, in the table's order. */
export function inputApiNearMiss(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem | undefined {
  for (const api of Object.values(inputApis)) {
    const problem = api.nearMiss(object);
    if (problem) return problem;
  }
  return undefined;
}

const internal = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): never => {
  throw new Error(`internal: no front end and no problem for ${object.kind} ${object.apiVersion}`);
};

/** The target as the summary names it: `OGX 1.2.4+rhaiv.0 (distribution rh, image …)`; a build renders as its upstream release. */
const targetOf = (plan: ServerTarget): string =>
  `${serverOf(plan)}${plan.build === undefined ? '' : `+${clip(plan.build)}`} (distribution ${clip(plan.distributionName)}, image ${clip(plan.image)})`;

/** "2 providers from the LLSD (9 in all) and 1 model". */
const generatedCounts = ({ providerCount, modelCount }: GeneratedConfig, from: string): string =>
  `${count(providerCount.fromLlsd, 'provider')} from the ${from} (${providerCount.total} in all) and ${count(modelCount, 'model')}`;

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
