/** llsd-render's version, set at build time from package.json (scripts/build.mjs, vitest.config.ts). */
export const version = __LLSD_RENDER_VERSION__;
