// The OGX operator's typed-provider table (configs/ogx-providers.yaml): which fields an OGXServer's
// `spec.providers` has, the provider_type and default id of each, and the config key each CR field
// becomes. The webhook's id check, the config generation and the LLSD → OGXServer conversion all
// read it here; test/unit/ogx-providers-table.test.ts checks the file against this schema and the
// OGXServer zod schema against the file.
import { configFile } from './files.js';
import { lazily, z } from '../lib/zod.js';

/** The shape of configs/ogx-providers.yaml, built on first use (only the tests check the file with it). */
export const ogxProvidersSchema = lazily(() => {
  const field = z.strictObject({
    /** The CR field. */
    field: z.string(),
    /** The config key it becomes. */
    key: z.string(),
    kind: z.enum(['string', 'int', 'bool', 'strings', 'enum', 'decimal', 'secret', 'map', 'object']),
    required: z.optional(z.boolean()),
    /** An empty object, map or list is left out. */
    omitEmpty: z.optional(z.boolean()),
    /** int: the bounds (minimum 1 when not given). */
    min: z.optional(z.int()),
    max: z.optional(z.int()),
    /** enum: the values. */
    values: z.optional(z.array(z.string())),
    /** object: its fields. */
    get fields() {
      return z.optional(z.array(field));
    },
  });
  const provider = z.strictObject({
    field: z.string(),
    type: z.string().check(z.regex(/^(remote|inline)::[a-z0-9-]+$/)),
    id: z.string(),
    single: z.optional(z.boolean()),
    /** Config keys of which the CRD wants at least one set. */
    oneOf: z.optional(z.array(z.string())),
    fields: z.array(field),
  });
  return z.strictObject({
    shapes: z.record(z.string(), z.unknown()),
    apis: z.array(
      z.strictObject({
        field: z.string(),
        api: z.string(),
        common: z.optional(z.array(field)),
        remote: z.array(provider),
        inline: z.array(provider),
      }),
    ),
  });
});

type Table = z.infer<ReturnType<typeof ogxProvidersSchema>>;
export type OgxTypedApi = Table['apis'][number];
export type OgxTypedField = NonNullable<OgxTypedApi['common']>[number];
export type OgxPlacement = 'remote' | 'inline';

/** One typed provider with its API and placement, as the operator orders them. */
export interface OgxTypedProvider {
  /** The key under `spec.providers` (`vectorIo`). */
  apiField: string;
  /** The config.yaml API (`vector_io`). */
  api: string;
  placement: OgxPlacement;
  /** The key under the placement (`pgvector`). */
  field: string;
  /** The provider_type the operator writes. */
  type: string;
  /** The default id of a list's entries; the fixed id of a single provider. */
  id: string;
  single: boolean;
  /** Its own fields, then the API's common ones: the order the operator writes them. */
  fields: readonly OgxTypedField[];
  /** The API's common fields, then its own: the order the conversion writes them. */
  conversionFields: readonly OgxTypedField[];
  /** Config keys of which at least one must be set. */
  oneOf: readonly string[];
}

const table = (): Table => {
  const value = configFile('ogx-providers.yaml');
  if (value === undefined) throw new Error('configs/ogx-providers.yaml is not embedded');
  return value as Table;
};

/** The APIs of `spec.providers` in the operator's order, with their config API (`vectorIo` → `vector_io`). */
export const ogxTypedApis = (): ReadonlyArray<{ field: string; api: string }> => table().apis.map(({ field, api }) => ({ field, api }));

let providers: OgxTypedProvider[] | undefined;
/** Every typed provider in the operator's order: API, then remote before inline, then as listed. */
export function ogxTypedProviders(): readonly OgxTypedProvider[] {
  providers ??= table().apis.flatMap((api) =>
    (['remote', 'inline'] as const).flatMap((placement) =>
      api[placement].map((p) => ({
        apiField: api.field,
        api: api.api,
        placement,
        field: p.field,
        type: p.type,
        id: p.id,
        single: p.single === true,
        fields: [...p.fields, ...(api.common ?? [])],
        conversionFields: [...(api.common ?? []), ...p.fields],
        oneOf: p.oneOf ?? [],
      })),
    ),
  );
  return providers;
}

/** The typed providers of one API (its `spec.providers` key) and placement, in order. */
export const ogxTypedProvidersOf = (apiField: string, placement: OgxPlacement): OgxTypedProvider[] =>
  ogxTypedProviders().filter((p) => p.apiField === apiField && p.placement === placement);

let decimalKeys: Set<string> | undefined;
/** The config keys whose CR field is a decimal string (divergence S2: OGX reads a float). */
export function ogxDecimalKeys(): ReadonlySet<string> {
  if (decimalKeys) return decimalKeys;
  const keys = (decimalKeys = new Set<string>());
  const walk = (fields: readonly OgxTypedField[]): void =>
    fields.forEach((f) => {
      if (f.kind === 'decimal') keys.add(f.key);
      walk(f.fields ?? []);
    });
  ogxTypedProviders().forEach((p) => walk(p.fields));
  return keys;
}
