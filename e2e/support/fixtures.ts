/**
 * Playwright fixtures: every test gets its own copy of the fixture home, its own `baton serve`,
 * and a page that is logged in (cookie set by the one-time login link) with clipboard access.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { startBatonServer, type BatonServer } from '../../testing/baton-server.js';

export interface BatonFixtures {
  fixtureHome: FixtureHome;
  baton: BatonServer;
  /** A page logged in to `baton` and showing the app. */
  app: Page;
}

export const test = base.extend<BatonFixtures>({
  // eslint-disable-next-line no-empty-pattern
  fixtureHome: async ({}, use) => {
    const home = makeFixtureHome();
    await use(home);
    home.cleanup();
  },
  baton: async ({ fixtureHome }, use, testInfo) => {
    const batonHome = fixtureHome.env.BATON_HOME ?? path.join(path.dirname(fixtureHome.home), 'baton');
    const server = await startBatonServer({ home: fixtureHome.home, batonHome, env: fixtureHome.env });
    await use(server);
    await server.stop();
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('baton-serve.log', { body: server.output(), contentType: 'text/plain' });
    }
  },
  app: async ({ page, context, baton }, use) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baton.url });
    await page.goto(baton.loginUrl);
    await expect(page).toHaveURL(`${baton.url}/`);
    await use(page);
  },
});

export { expect };

/** Saves a screenshot as a test artifact (attached to the report, kept in the test's output dir). */
export async function snapshot(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The session list's rows (not the <option>s of the filter selects). */
export function rows(page: Page): Locator {
  return page.locator('#session-list').getByRole('option');
}

/** Waits until the session list shows at least `count` rows. */
export async function waitForSessions(page: Page, count = 1): Promise<void> {
  await expect.poll(async () => rows(page).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
}
