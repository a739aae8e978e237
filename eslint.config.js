// Lint rules, including the layer boundaries that keep the product's map honest:
// shared/ imports nothing environment-specific, electron/core/ never imports electron,
// renderer/ imports only shared/ and browser libraries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const nodeOnly = ['node:*', 'better-sqlite3', 'chokidar', 'simple-git', 'commander', '@modelcontextprotocol/*', 'tsx', 'tsx/*'];

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'renderer/dist/**', 'release/**', 'test-results/**', 'playwright-report/**', 'bench/.corpus/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins.map((name) => ({ name, message: 'shared/ is environment-neutral: no Node built-ins.' })), { name: 'electron', message: 'shared/ must not import electron.' }],
          patterns: [
            { group: [...nodeOnly, 'electron', 'electron/*', 'react', 'react-dom', 'react-dom/*'], message: 'shared/ is environment-neutral (no Node, Electron, DOM or React).' },
            { group: ['../electron/*', '../renderer/*', '../../*'], message: 'shared/ imports only from shared/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'electron/core is pure Node: it never imports electron (put Electron glue in electron/*.ts).' }],
          patterns: [
            { group: ['electron/*'], message: 'electron/core is pure Node: it never imports electron.' },
            { group: ['**/renderer/*', '**/renderer'], message: 'The core never imports the renderer.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // Unit tests run in Node under vitest (e.g. the HTTP transport against a real local server).
    ignores: ['renderer/vite.config.ts', 'renderer/**/*.test.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs in a browser: no Node built-ins.' })), { name: 'electron', message: 'The renderer talks to the core through the bridge, never electron.' }],
          patterns: [
            { group: [...nodeOnly, 'electron/*'], message: 'The renderer imports only shared/ and browser libraries.' },
            { group: ['**/electron/*', '**/electron'], message: 'The renderer imports only shared/ and browser libraries.' },
          ],
        },
      ],
    },
  },
);
