// What checking a config against a catalog release's JSON Schemas needs beyond the schemas
// themselves: how that release substitutes `${env.…}` before it validates (configs/release-notes.yaml
// `envSubstitution`, read from each release's `replace_env_vars`), and the conversions its
// pydantic validators make that a JSON Schema cannot say.

import { inRange, releaseNotes } from './catalog.js';
import type { Substitution } from './schema.js';
import { compareVersions } from './versions.js';

export type { Substitution };

/** The substitution rules of a catalog release (configs/release-notes.yaml `envSubstitution`). */
const substitutions = new Map<string, Substitution>();
export function substitutionOf(catalogRelease: string): Substitution {
  const known = substitutions.get(catalogRelease);
  if (known) return known;
  const rules = releaseNotes()
    .envSubstitution.filter((rule) => compareVersions(rule.since, catalogRelease) <= 0)
    .sort((a, b) => compareVersions(b.since, a.since))[0];
  if (!rules) throw new Error(`configs/release-notes.yaml: no envSubstitution entry for ${catalogRelease}`);
  const { since: _since, ...substitution } = rules;
  substitutions.set(catalogRelease, substitution);
  return substitution;
}

/** The keys of a provider's config that the release splits at commas when given as a string (configs/release-notes.yaml `commaLists`). */
export const commaListKeys = (catalogRelease: string, api: string, type: string): readonly string[] =>
  releaseNotes()
    .commaLists.filter((c) => c.api === api && c.type === type && inRange(catalogRelease, c))
    .flatMap((c) => c.keys);

/**
 * The keys of a provider's config the release needs although its schema makes them optional
 * (configs/release-notes.yaml `requiredAtRuntime`: pgvector's `persistence`, which the provider
 * reads at startup).
 */
export const runtimeRequiredKeys = (catalogRelease: string, api: string, type: string): readonly string[] =>
  releaseNotes()
    .requiredAtRuntime.filter((r) => r.api === api && r.type === type && inRange(catalogRelease, r))
    .map((r) => r.key);
