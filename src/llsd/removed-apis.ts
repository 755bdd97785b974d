// An LLSD that asks for an API its target release no longer has (OGX 1.0 removed the Safety API:
// no `safety` providers, no shields). The server would ignore the leftover config or stop at
// provider resolution, so the LLSD is refused with the last release that had the API and what to
// use instead. Which APIs and their alternatives are data (the release profile's `removedApis`);
// the last release with the API is read from the release catalog.
import { apiOfDisabled } from './rules.js';
import type { FieldProblem } from '../lib/issues.js';
import { providerApis } from './llsd-v1alpha2.js';
import { annotation } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import { code } from '../lib/quote.js';
import { catalogReleases, serverRelease } from '../catalog/catalog.js';
import { compareVersions } from '../catalog/versions.js';
import type { Plan } from './plan.js';
import { releaseName } from '../catalog/versions.js';

/**
 * Adds an error for every LLSD field that configures an API the release removed (providers,
 * external providers, and resources of that API's routing table, e.g. `resources.shields`);
 * true when there was one, so that generation stops before it reports the same fields again.
 */
export function refuseRemovedApis(plan: Plan, problems: FieldProblem[]): boolean {
  const removed = plan.profile.removedApis ?? {};
  const { spec } = plan.llsd;
  const found: FieldProblem[] = [];
  // A disabled API's providers are ignored with a warning (disabled wins): no second result.
  const disabled = new Set((spec.disabled ?? []).map(apiOfDisabled));
  for (const [crName, api] of Object.entries(providerApis)) {
    if (!Object.hasOwn(removed, api) || disabled.has(api)) continue;
    const last = lastReleaseWith(api, plan.catalogRelease);
    const why = (field: string): string =>
      `configures the ${api} API, which ${releaseName(plan.release)} does not have${last ? ` (its last release with ${api} is ${last})` : ''}: ` +
        `${removed[api]}. Remove ${code(field)}${last ? `, or render for ${last} with the \`${annotation.release}\` annotation` : ''}`;
    const fields: Array<[string, unknown]> = [
      ['providers', spec.providers],
      ['externalProviders', spec.externalProviders],
    ];
    for (const [field, value] of fields) {
      if (has(value, crName)) found.push({ path: ['spec', field, crName], message: why(`${field}.${crName}`) });
    }
    for (const table of last ? routingTablesOf(api, last) : []) {
      if (has(spec.resources, table)) found.push({ path: ['spec', 'resources', table], message: why(`resources.${table}`) });
    }
  }
  problems.push(...found);
  return found.length > 0;
}

const has = (value: unknown, key: string): boolean => isPlainObject(value) && value[key] !== undefined;

/** The newest catalog release before `release` whose server takes providers for `api`. */
function lastReleaseWith(api: string, release: string): string | undefined {
  return [...catalogReleases()]
    .filter((r) => compareVersions(r, release) < 0)
    .reverse()
    .find((r) => serverRelease(r)?.apis.providable.includes(api));
}

/** The routing tables (resource kinds: `shields` for safety) of `api` in `release`. */
const routingTablesOf = (api: string, release: string): string[] =>
  Object.entries(serverRelease(release)?.apis.routingTables ?? {})
    .filter(([, routed]) => routed === api)
    .map(([table]) => table);
