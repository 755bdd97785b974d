/** configs/, embedded at build time (scripts/embed-yaml.mjs): path under configs/ → the file's value as JSON text. Read through src/catalog/files.ts. */
declare module 'llsd-configs' {
  const files: Record<string, string>;
  export default files;
}
/** Set by esbuild (scripts/build.mjs) and vitest.config.ts from package.json. */
declare const __LLSD_RENDER_VERSION__: string;
