/** configs/*.yaml, parsed at build time (scripts/embed-yaml.mjs); their shapes are in src/config/catalog-schema.ts. */
declare module '*.yaml' {
  const data: unknown;
  export default data;
}
/** Set by esbuild (scripts/build.mjs) and vitest.config.ts from package.json. */
declare const __LLSD_RENDER_VERSION__: string;
