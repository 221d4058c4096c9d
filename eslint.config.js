// ESLint over the whole repository's TypeScript, with type information (typescript-eslint).
// The rules chosen are the ones that find defects, not matters of taste: a promise nobody awaits
// or handles can reject unobserved, and one unhandled rejection ends a node process.
import tseslint from 'typescript-eslint';
import { maxLenConfig } from './eslint.max-len.js';

export default tseslint.config(
  {
    // The benchmarks run through tsx against the sources and are no tsconfig's project; the web UI
    // is built and checked by Vite's own TypeScript; the client's types are openapi-typescript's output.
    ignores: [
      'packages/client/src/openapi.ts',
      '**/dist/**',
      '**/dist-bench/**',
      '**/node_modules/**',
      'packages/web/**',
      'packages/server/bench/**',
      '**/*.d.ts',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: true, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // ESLint's own max-len (deprecated with the other layout rules, kept until ESLint 11): no new dependency.
  maxLenConfig,
);
