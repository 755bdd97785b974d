import { defineConfig } from 'vitest/config';
// @ts-expect-error: a plain .mjs script without type declarations
import { configsModule, configsModuleId } from './scripts/embed-yaml.mjs';

// configs/ is imported as the virtual module the build embeds (scripts/embed-yaml.mjs).
const resolved = `\0${configsModuleId}`;
const embedConfigs = {
  name: 'embed-configs',
  resolveId: (id: string) => (id === configsModuleId ? resolved : undefined),
  load: (id: string) => (id === resolved ? (configsModule(new URL('./configs', import.meta.url).pathname) as string) : undefined),
};

export default defineConfig({
  plugins: [embedConfigs],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
