import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'testing/**/*.test.ts'],
    // Fails the run when a test changed ../shared (the fixtures every test copies).
    globalSetup: ['testing/shared-guard-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
