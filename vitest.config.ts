import { defineConfig } from 'vitest/config';
// @ts-expect-error: a plain .mjs script without type declarations
import { embedYaml } from './scripts/embed-yaml.mjs';

// configs/*.yaml are imported as parsed data, as the build embeds them.
const yamlAsData = {
  name: 'yaml-as-data',
  transform(code: string, id: string) {
    return id.endsWith('.yaml') ? (embedYaml(id, code) as string) : undefined;
  },
};

export default defineConfig({
  plugins: [yamlAsData],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
