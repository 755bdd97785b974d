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

// The inner loop's tests (`npm run test:quick`: unit, golden, property, invalid) share one module
// graph per worker: isolated, each file imports src/ and its dependencies afresh, a third of their time.
const quick = ['test/unit/**/*.test.ts', 'test/golden.test.ts', 'test/property/**/*.test.ts', 'test/invalid/**/*.test.ts'];
// A file that replaces a module (vi.mock) needs a module graph of its own.
const ownModules = ['test/unit/yaml-limits.test.ts'];

export default defineConfig({
  plugins: [embedConfigs],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'quick', include: quick, exclude: ownModules, isolate: false } },
      { extends: true, test: { name: 'quick-isolated', include: ownModules } },
      // The bundle, the CLI, the fuzzer and the real tools (kpt, kustomize, podman, a registry).
      { extends: true, test: { name: 'tools', include: ['test/**/*.test.ts'], exclude: quick } },
    ],
  },
});
