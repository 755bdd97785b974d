/** configs/, embedded at build time (scripts/embed-yaml.mjs): path under configs/ → the file's value as JSON text. Read through src/catalog/files.ts. */
declare module 'llsd-configs' {
  const files: Record<string, string>;
  export default files;
}
/** Set by esbuild (scripts/build.mjs) and vitest.config.ts from package.json. */
declare const __LLSD_RENDER_VERSION__: string;
/** Set by esbuild (scripts/build.mjs): the JSON text of src/llsd/prebuilt-sources.ts's facts. Not defined elsewhere. */
declare const __LLSD_RENDER_PREBUILT__: string | undefined;
