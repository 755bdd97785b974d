// Where in the CR (an LLSD or an OGXServer) a problem of its config.yaml comes from, so its result
// points at the field (and file line) the user wrote. One walk for both front ends; each gives its
// mapping as data (src/llsd/cr-fields.ts, src/ogx/cr-fields.ts): a provider entry the CR added or
// laid over is that CR provider (a key its `settings` wrote is that setting), and any further
// config paths the CR's fields write.
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';

type Path = FieldProblem['path'];

export interface CrFieldMap {
  /** The CR's providers: the API as config.yaml names it (`inference`, `vector_io`), the provider_id, where the CR wrote it, its settings. */
  providers: ReadonlyArray<{ api: string; id: string; path: Path; settings: unknown }>;
  /** Config paths outside `providers:`, tried in order: the first whose pattern matches and whose `field` gives a path wins. */
  others?: ReadonlyArray<{ pattern: RegExp; field: (match: RegExpExecArray) => Path | undefined }>;
}

const PROVIDER_PATH = /^providers\.([a-z_]+)\[(\d+)\](?:\.config\.([^.[]+))?/;

/** The CR field a config.yaml path (`providers.inference[2].config.max_tokenz`) comes from, or [] (the item) when the CR did not write it. */
export function crFieldOf(configPath: string, config: Record<string, unknown>, map: CrFieldMap): Path {
  const match = PROVIDER_PATH.exec(configPath);
  if (match) {
    const [, api, index, key] = match as unknown as [string, string, string, string | undefined];
    const entries = isPlainObject(config.providers) ? config.providers[api] : undefined;
    const entry = Array.isArray(entries) ? entries[Number(index)] : undefined;
    const provider = isPlainObject(entry) ? map.providers.find((p) => p.api === api && p.id === entry.provider_id) : undefined;
    if (!provider) return [];
    const { settings } = provider;
    return key !== undefined && isPlainObject(settings) && Object.hasOwn(settings, key) ? [...provider.path, 'settings', key] : provider.path;
  }
  for (const other of map.others ?? []) {
    const found = other.pattern.exec(configPath);
    const path = found ? other.field(found) : undefined;
    if (path) return path;
  }
  return [];
}
