/**
 * End-to-end tests: the built renderer served by a real `baton serve` over fixture stores, in the
 * system Chromium (never a downloaded one). `npm run test:e2e` builds the renderer first.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  // Fails the run when a test changed ../shared (the fixtures every test copies).
  globalSetup: '../testing/shared-guard-setup.ts',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two cores shared by the whole team: one worker, each test with its own server and HOME.
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: '../playwright-report', open: 'never' }]],
  use: {
    headless: true,
    viewport: { width: 760, height: 620 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'browser', testDir: './browser' },
    { name: 'mcp', testDir: './mcp' },
    { name: 'electron', testDir: './electron' },
    // The README's screenshots: only when asked for (`npm run docs:screenshots`), never in the suite.
    ...(process.env.BATON_DOCS_SHOTS === '1' ? [{ name: 'docs', testDir: './docs' }] : []),
  ],
});
