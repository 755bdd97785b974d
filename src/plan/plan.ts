// Plan: which distribution, release, image and base config an LLSD renders against (DESIGN §5).
import type { FieldProblem } from '../api/issues.js';
import { closest } from '../api/issues.js';
import type { Llsd } from '../api/llsd.js';
import { baseConfigText, distributions, type ReleaseProfile } from '../config/catalog.js';
import { compareVersions, profileFor, supportedReleases } from '../config/versions.js';
import { annotation } from '../krm/item.js';
import type { Inventory } from '../krm/inventory.js';
import { parseYaml11 } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';
import { notRenderedYet } from './pending.js';

export interface Plan {
  llsd: Llsd;
  distributionName: string;
  image: string;
  release: string;
  profile: ReleaseProfile;
  /** The distribution's config.yaml as the server would parse it. */
  baseConfig: Record<string, unknown>;
  /** `spec.overrideConfig`: the user's ConfigMap and its config.yaml, used instead of a generated one. */
  overrideConfig?: { configMapName: string; text: string };
}

export type PlanOutcome = { ok: true; plan: Plan } | { ok: false; problems: FieldProblem[] };

const supportedConfigVersions = ['2'];

export function planLlsd(llsd: Llsd, inventory: Inventory): PlanOutcome {
  const pending = notRenderedYet(llsd);
  if (pending.length > 0) return { ok: false, problems: pending };
  const { name, image } = llsd.spec.distribution;
  if (name === undefined) {
    return fail(['spec', 'distribution', 'image'], `distribution images are not supported yet (${String(image)}); use \`spec.distribution.name\`, for example \`starter\``);
  }
  const catalog = distributions();
  const entry = Object.hasOwn(catalog, name) ? catalog[name] : undefined;
  if (!entry) {
    const known = Object.keys(catalog).sort();
    const near = closest(name, known);
    return fail(
      ['spec', 'distribution', 'name'],
      `unknown distribution "${name}".${near ? ` Did you mean "${near}"?` : ''} Known distributions: ${known.join(', ')}; or set \`spec.distribution.image\` instead.`,
    );
  }
  const requested = llsd.annotations[annotation.release];
  const release = requested ?? entry.defaultRelease;
  const pinned = Object.hasOwn(entry.releases, release) ? entry.releases[release] : undefined;
  if (!pinned) {
    const known = Object.keys(entry.releases).sort(compareVersions);
    return fail(
      ['metadata', 'annotations', annotation.release],
      `distribution "${name}" has no release "${release}"; available: ${known.join(', ')}`,
    );
  }
  const profile = profileFor(release);
  if (!profile) {
    return fail(['spec', 'distribution', 'name'], `llama-stack ${release} is not supported; supported releases: ${supportedReleases()}`);
  }
  const text = baseConfigText(pinned.config);
  if (text === undefined) throw new Error(`configs/distributions.yaml names ${pinned.config}, which is not embedded`);
  const parsed = parseYaml11(text);
  const baseConfig = parsed.value;
  if (parsed.problem || !isPlainObject(baseConfig)) throw new Error(`configs/distributions/${pinned.config} does not parse`);
  const version = String(baseConfig.version);
  if (!supportedConfigVersions.includes(version)) {
    return fail(['spec', 'distribution'], `Unsupported config.yaml version ${version}. Supported versions: ${supportedConfigVersions.join(', ')}`);
  }
  const plan: Plan = { llsd, distributionName: name, image: pinned.image, release, profile, baseConfig };
  if (llsd.spec.overrideConfig) {
    const override = readOverrideConfig(llsd, inventory);
    if ('problem' in override) return { ok: false, problems: [override.problem] };
    plan.overrideConfig = override;
  }
  return { ok: true, plan };
}

/** The overrideConfig ConfigMap's config.yaml, checked the way the server reads it (FR-029, FR-074). */
function readOverrideConfig(llsd: Llsd, inventory: Inventory): { configMapName: string; text: string } | { problem: FieldProblem } {
  const configMapName = (llsd.spec.overrideConfig as { configMapName: string }).configMapName;
  const path = ['spec', 'overrideConfig', 'configMapName'];
  const text = (inventory.find('', 'ConfigMap', llsd.namespace, configMapName)?.object.data as Record<string, unknown> | undefined)?.['config.yaml'];
  // checkReferences has already reported a missing ConfigMap or key.
  if (typeof text !== 'string') return { problem: { path, message: `the ConfigMap "${configMapName}" must be in the input with a \`config.yaml\` key` } };
  const parsed = parseYaml11(text);
  if (parsed.problem || !isPlainObject(parsed.value)) {
    return { problem: { path, message: `the config.yaml of the ConfigMap "${configMapName}" is not a YAML mapping${parsed.problem ? ` (line ${parsed.problem.line ?? '?'}: ${parsed.problem.message})` : ''}` } };
  }
  const version = String(parsed.value.version);
  if (!supportedConfigVersions.includes(version)) {
    return { problem: { path, message: `Unsupported config.yaml version ${version}. Supported versions: ${supportedConfigVersions.join(', ')}` } };
  }
  return { configMapName, text };
}

const fail = (path: FieldProblem['path'], message: string): PlanOutcome => ({ ok: false, problems: [{ path, message }] });
