// `spec.disabled` → APIs removed from the distribution (docs/config-generation.md "Disabled APIs"): the API leaves
// `apis`, its providers go, and so does what refers to them (registered resources,
// `safety.default_shield_id`, the `vector_stores` defaults). Disabling an API that a remaining
// provider needs is an error naming the dependent API: the server would refuse to start, and
// cascading silently would remove more than the CR asked for.
import type { FieldProblem } from '../lib/issues.js';
import { closest } from '../lib/issues.js';
import { apiOfDisabled } from './rules.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { listOf, quote } from '../lib/quote.js';
import type { Plan } from './plan.js';
import { providableApis, providerDependencies, type ReleaseProfile } from '../catalog/catalog.js';
import { conditionalId } from './providers.js';
import { resourceList, resourceListsOf, setResourceList } from './resources.js';
import { releaseName } from '../catalog/versions.js';

/**
 * The name `name` (snake_case) has in the target release: itself, or the name the release uses
 * for it (the profile's `renamedApis`: `agents` → `responses` from 0.7.0, `responses` → `agents`
 * before); undefined when the catalog release has no such API that takes providers.
 */
export function releaseApiName(name: string, profile: ReleaseProfile, catalogRelease: string): string | undefined {
  const apis = providableApis(catalogRelease);
  if (apis.includes(name)) return name;
  const renamed = Object.hasOwn(profile.renamedApis, name) ? profile.renamedApis[name] : undefined;
  return renamed !== undefined && apis.includes(renamed) ? renamed : undefined;
}

/**
 * The APIs a provider of `api` with `type` needs in the catalog release: its registry entry's
 * dependencies (the same source as startup rule 7), less the routing tables and internal APIs
 * the server serves itself.
 */
export function requiredApis(api: string, type: unknown, catalogRelease: string): Set<string> {
  if (typeof type !== 'string') return new Set();
  const apis = providableApis(catalogRelease);
  return new Set(providerDependencies(catalogRelease, api, type).filter((need) => need !== api && apis.includes(need)));
}

/** Removes the disabled APIs from `config`; returns them by their names in the target release. */
export function applyDisabled(config: Record<string, unknown>, plan: Plan, problems: FieldProblem[]): Set<string> {
  const { profile, release, catalogRelease } = plan;
  const apis = providableApis(catalogRelease);
  const disabled = new Map<string, number>();
  (plan.llsd.spec.disabled ?? []).forEach((written, i) => {
    const name = apiOfDisabled(written);
    const api = releaseApiName(name, profile, catalogRelease);
    if (api === undefined) {
      const near = closest(name, apis);
      problems.push({
        path: ['spec', 'disabled', i],
        message: `${quote(written)} is not an API of ${releaseName(release)}.${near ? ` Did you mean "${near}"?` : ''} Its APIs: ${listOf(apis)}`,
      });
    } else if (!disabled.has(api)) {
      disabled.set(api, i);
    }
  });
  if (disabled.size === 0) return new Set();

  const providers = isPlainObject(config.providers) ? config.providers : {};
  const conflicts = dependents(providers, disabled, catalogRelease);
  for (const [api, at] of disabled) {
    const needing = conflicts.get(api);
    if (!needing) continue;
    const apis = [...needing.keys()].sort();
    const who = apis.map((a) => {
      const { ids, all } = needing.get(a) as { ids: string[]; all: boolean };
      return all ? a : `${a} (${listOf(ids)})`;
    });
    problems.push({
      path: ['spec', 'disabled', at],
      message: `cannot be disabled while ${andList(who)} ${who.length === 1 ? 'needs' : 'need'} ${api} (the server would not start): disable ` +
        `${andList(apis)} too, or keep ${api}`,
    });
  }

  for (const api of disabled.keys()) {
    if (Array.isArray(config.apis)) setOwn(config, 'apis', config.apis.filter((a) => a !== api));
    delete providers[api];
    for (const key of resourceListsOf[api] ?? []) {
      if (resourceList(config, profile, key).length > 0) setResourceList(config, profile, key, []);
    }
    if (api === 'safety' && isPlainObject(config.safety)) {
      delete config.safety.default_shield_id;
      if (Object.keys(config.safety).length === 0) delete config.safety;
    }
    // Defaults for vector stores and file search: the default provider is gone, and nothing else reads them.
    if (api === 'vector_io') delete config.vector_stores;
  }
  return new Set(disabled.keys());
}

/**
 * For each disabled API, the remaining APIs with providers that need it: by API, the ids of those
 * providers and whether all of the API's providers do.
 */
function dependents(
  providers: Record<string, unknown>,
  disabled: ReadonlyMap<string, number>,
  catalogRelease: string,
): Map<string, Map<string, { ids: string[]; all: boolean }>> {
  const out = new Map<string, Map<string, { ids: string[]; all: boolean }>>();
  for (const [api, entries] of Object.entries(providers)) {
    if (disabled.has(api) || !Array.isArray(entries)) continue;
    const byNeed = new Map<string, string[]>();
    for (const entry of entries) {
      if (!isPlainObject(entry)) continue;
      const id = conditionalId(entry.provider_id) ?? String(entry.provider_id);
      for (const need of requiredApis(api, entry.provider_type, catalogRelease)) {
        if (!disabled.has(need)) continue;
        byNeed.set(need, [...(byNeed.get(need) ?? []), id]);
      }
    }
    for (const [need, ids] of byNeed) {
      const forNeed = out.get(need) ?? new Map<string, { ids: string[]; all: boolean }>();
      forNeed.set(api, { ids, all: ids.length === entries.length });
      out.set(need, forNeed);
    }
  }
  return out;
}

// The items are API names, or ones with their provider ids already listed (and bounded) by listOf.
const andList = (items: readonly string[]): string => listOf(items, { last: 'and', each: (item) => item });
