declare module '*.yaml' {
  const text: string;
  export default text;
}
/** Set by esbuild (scripts/build.mjs) and vitest.config.ts from package.json. */
declare const __LLSD_RENDER_VERSION__: string;
