/**
 * Tests that drive the real agent CLIs (installed from npm, pinned, cached outside the repo) against
 * the loopback mock LLM. One file at a time: each run starts a real agent, and CI has two cores.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['e2e/agents/**/*.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
