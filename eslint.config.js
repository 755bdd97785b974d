// The linter (`npm run lint`; `npm test` runs it too): typescript-eslint's recommended rules with type
// information, which is what lets no-floating-promises see a promise nobody awaits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// A line may pass 160 characters only when it is one string, template or regex (a message, a
// YAML text, a pattern): kept whole so that a search for the message finds it.
const oneLiteral = String.raw`^\s*(?:[\w$'"-]+:\s*|return\s+|[?:]\s+|(?:it|describe|test)(?:\.\w+)*\()?` +
  String.raw`(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|${'`'}.*${'`'}|/.*/[dgimsuy]*)(?:[,;):]*|, (?:async )?\(\) => \{)$`;

// What the loader uses of Node's CommonJS scope.
const nodeCommonJs = Object.fromEntries(['require', 'module', 'process', 'Buffer', '__filename', '__dirname', 'console'].map((name) => [name, 'readonly']));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-len': ['error', { code: 160, ignorePattern: oneLiteral }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Parsed YAML and JSON are `unknown` narrowed by zod or by hand; these rules would flag each use
      // of the `any` that JSON.parse and the yaml package hand back.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Wrong on `(x as T | undefined)?.y`, where its fix removes a cast tsc needs.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // An async stub without await is how a test hands a function its promise.
      '@typescript-eslint/require-await': 'off',
      // Control characters are what the sanitisers look for; spaces in a regex match what a message prints.
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',
    },
  },
  // The loader is CommonJS outside the TypeScript project; its first line is its guard, kept whole (see the file).
  {
    files: ['**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: nodeCommonJs },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'max-len': ['error', { code: 160, ignorePattern: "^'use strict'; \\{ var loading" }] },
  },
  // Source lines stay within 160 characters, messages included (split into concatenations).
  { files: ['src/**/*.ts'], rules: { 'max-len': ['error', { code: 160 }] } },
  // Tests dig into rendered objects without declaring each one's type.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
