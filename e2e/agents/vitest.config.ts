/**
 * Tests that drive the real agent CLIs (installed from npm, pinned, cached outside the repo) against
 * the loopback mock LLM, and the README's `npm install && npm start` in a fresh clone (e2e/first-run).
 * One file at a time: each run starts real agents or a whole install and build, and CI has two cores.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['e2e/agents/**/*.test.ts', 'e2e/first-run/**/*.test.ts'],
    // Fails the run when a test changed ../shared (fixtures, mock LLM).
    globalSetup: ['testing/shared-guard-setup.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
