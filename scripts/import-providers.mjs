// Writes configs/providers.yaml from the reference provider table in ../shared/reference/
// (a one-off import, run by hand when the reference changes; the output is reviewed data).
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

const source = new URL('../../shared/reference/llamastack-providers.yaml', import.meta.url);
const rows = parse(readFileSync(source, 'utf8'));
const out = rows.map((row) => {
  const entry = { type: row.provider_type, api: row.api };
  entry.urlKey = row.url_field ?? null;
  entry.credentialKey = row.credential_field ?? null;
  if (row.connection_fields) entry.connectionKeys = row.connection_fields;
  if (row.required_fields?.length) entry.requiredKeys = row.required_fields;
  entry.presentIn = Object.entries(row.present_in ?? {}).filter(([, present]) => present).map(([release]) => release.replace(/^v/, ''));
  if (row.removed_in) entry.removedIn = String(row.removed_in).replace(/^v/, '');
  if (row.requires_apis) entry.requiresApis = row.requires_apis;
  if (row.fields_in_older_releases) {
    entry.fieldsInOlderReleases = Object.fromEntries(
      Object.entries(row.fields_in_older_releases).map(([release, fields]) => [release.replace(/^v/, ''), fields]),
    );
  }
  return entry;
});
const header = `# llama-stack provider table: every provider type per API, its URL and credential keys (newest
# release), the releases it is known in, and older field names. Imported from the reference table
# (../shared/reference/llamastack-providers.yaml, read from llama-stack v0.8.0, v0.7.1, v0.3.5 and
# v0.2.24) by scripts/import-providers.mjs.
`;
writeFileSync(new URL('../configs/providers.yaml', import.meta.url), header + stringify(out, { lineWidth: 0 }));
