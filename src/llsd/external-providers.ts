// External providers (spec 001; FR-090–FR-092): providers installed from their own images, added
// to the generated config after everything else. What only the image knows (provider type,
// module) comes from fields on the entry, because images are not read at render time.
import type { FieldProblem } from '../lib/issues.js';
import type { Llsd } from './llsd.js';
import { providerApis, type ProviderApi } from './llsd-v1alpha2.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { clip, quote } from '../lib/quote.js';

/**
 * Adds the external providers to `config.providers`: an external provider replaces a provider of
 * the same id with a warning (FR-092), otherwise it is appended (FR-091), and its API joins `apis`.
 */
export function mergeExternalProviders(config: Record<string, unknown>, llsd: Llsd, problems: FieldProblem[]): number {
  const providers = isPlainObject(config.providers) ? config.providers : {};
  setOwn(config, 'providers', providers);
  let added = 0;
  for (const [api, list] of Object.entries(llsd.spec.externalProviders ?? {})) {
    const configApi = providerApis[api as ProviderApi];
    (list ?? []).forEach((entry, i) => {
      const path = ['spec', 'externalProviders', api, i];
      const missing = (['providerType', 'module'] as const).filter((field) => entry[field] === undefined);
      if (missing.length > 0) {
        for (const field of missing) {
          problems.push({
            path: [...path, field],
            message: `is required to render an external provider: copy it from ${entry.image}'s /lls-provider/lls-provider-spec.yaml (llsd-render does not ` +
              `read images)`,
          });
        }
        return;
      }
      const provider: Record<string, unknown> = { provider_id: entry.providerId, provider_type: entry.providerType, module: entry.module };
      if (entry.config) provider.config = entry.config;
      const entries = (Array.isArray(providers[configApi]) ? providers[configApi] : []) as Array<Record<string, unknown>>;
      const at = entries.findIndex((e) => e.provider_id === entry.providerId);
      if (at >= 0) {
        problems.push({
          severity: 'warning',
          code: 'external-provider-replaces',
          path: [...path, 'providerId'],
          message: `replaces the ${configApi} provider ${quote(entry.providerId)} (${clip(String(entries[at]?.provider_type))}) with the external provider ` +
            `${clip(entry.providerType)}`,
        });
        entries[at] = provider;
      } else {
        entries.push(provider);
      }
      setOwn(providers, configApi, entries);
      const apis = config.apis;
      if (Array.isArray(apis) && apis.length > 0 && !apis.includes(configApi)) apis.push(configApi);
      added++;
    });
  }
  return added;
}
