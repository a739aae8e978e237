// Lint rules, including the layer boundaries that keep the product's map honest:
// shared/ imports nothing environment-specific, electron/core/ never imports electron,
// renderer/ imports only shared/ and browser libraries, electron/cli/ never imports electron,
// no shipped file imports test support (testing/, e2e/, bench/), and inside electron/core each
// folder stands on a floor and imports only its own floor and the ones below (CORE_FLOORS).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const nodeOnly = ['node:*', 'better-sqlite3', 'chokidar', 'simple-git', 'commander', '@modelcontextprotocol/*', 'tsx', 'tsx/*'];

/**
 * electron/core's floors, lowest first. A folder imports its own floor and those below, never a
 * higher one, so arrows point down and no two folders import each other. The composition root
 * (api.ts, baton-core.ts, service.ts, local-server.ts, extra-routes.ts) stands above them all.
 */
export const CORE_FLOORS = [
  ['fs', 'redaction', 'terminal'], // files, secrets, shell text: no knowledge of agents
  ['auth', 'settings', 'git', 'wsl', 'server'], // tokens, settings, git, WSL paths, the generic HTTP server
  ['sources', 'watch'], // one reader per agent store; the file watcher
  ['index'], // the SQLite store and search
  ['remote'], // other machines' stores over ssh
  ['ingest'], // keeps the index current from local and remote stores
  ['sessions', 'userdata', 'usage'], // session refs, checkpoints (baton.db), usage reports
  ['briefs', 'install'], // handoff briefs and their formats; what Baton installs into agents
  ['handoff'], // pending handoffs, the hook entry, the handoff service
  ['continue', 'auto'], // continue natively (write a session into another agent's store); unattended continuation on a limit hit
  ['mcp'], // the MCP endpoint
];
const COMPOSITION_ROOT = ['api', 'baton-core', 'service', 'local-server', 'extra-routes', 'desktop-state'];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts'];

const noElectron = [{ name: 'electron', message: 'electron/core is pure Node: it never imports electron (put Electron glue in electron/*.ts).' }];
const corePatterns = [
  { group: ['electron/*'], message: 'electron/core is pure Node: it never imports electron.' },
  { group: ['**/renderer/*', '**/renderer'], message: 'The core never imports the renderer.' },
];
const noTestSupport = { group: ['**/testing/*', '**/e2e/*', '**/bench/*'], message: 'Shipped code never imports test support (testing/, e2e/, bench/).' };
const upTo = (name) => ['..', '../..', '../../..'].map((up) => `${up}/${name}.js`);

/** One block per core folder: the core's own rules plus "nothing from a higher floor". */
function coreFloorBlocks() {
  return CORE_FLOORS.flatMap((floor, level) => {
    const higher = CORE_FLOORS.slice(level + 1).flat();
    return floor.map((folder) => ({
      files: [`electron/core/${folder}/**/*.ts`],
      ignores: TEST_FILES,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: noElectron,
            patterns: [
              ...corePatterns,
              noTestSupport,
              {
                group: [...higher.map((f) => `**/${f}/*`), ...COMPOSITION_ROOT.flatMap(upTo)],
                message: `electron/core/${folder}/ is on floor ${level} (eslint.config.js CORE_FLOORS): it imports only its own floor and lower ones, never a higher floor or the composition root.`,
              },
            ],
          },
        ],
      },
    }));
  });
}

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
            { group: ['../electron/*', '../renderer/*', '../../*', '../testing/*', '../e2e/*', '../bench/*'], message: 'shared/ imports only from shared/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noElectron, patterns: corePatterns }] },
  },
  {
    // The composition root and the other shipped files of the core, tests aside.
    files: ['electron/core/*.ts'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: noElectron, patterns: [...corePatterns, noTestSupport] }] },
  },
  ...coreFloorBlocks(),
  {
    // The `baton` command runs on plain Node, never inside Electron.
    files: ['electron/cli/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'electron/cli/ runs on plain Node: it never imports electron.' }],
          patterns: [{ group: ['electron/*'], message: 'electron/cli/ runs on plain Node: it never imports electron.' }, noTestSupport],
        },
      ],
    },
  },
  {
    // Benchmarks share test support through testing/, never through the e2e suites.
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/e2e/*'], message: 'bench/ takes shared test support from testing/, not from e2e/.' }] }] },
  },
  {
    // The Electron glue (main, preload, tray, windows…): anything but test support.
    files: ['electron/*.ts', 'electron/{app,tray,hotkey,window,clipboard,login-item}/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestSupport] }] },
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
            noTestSupport,
          ],
        },
      ],
    },
  },
);
