import { defineConfig } from 'vitest/config';

// configs/*.yaml are imported as text, as esbuild's text loader does in the bundle.
const yamlAsText = {
  name: 'yaml-as-text',
  transform(code: string, id: string) {
    return id.endsWith('.yaml') ? `export default ${JSON.stringify(code)};` : undefined;
  },
};

export default defineConfig({
  plugins: [yamlAsText],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
