import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

test('the shell renders, connects and lists the fixture sessions', async ({ app }, testInfo) => {
  await expect(app.getByRole('heading', { name: 'Baton' })).toBeVisible();
  await expect(app.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await waitForSessions(app, 10);
  // Every agent's fixture store shows up, each row with its badge and project.
  for (const agent of ['Claude', 'Codex', 'OpenCode', 'Hermes']) {
    await expect(app.locator('.agent-badge', { hasText: agent }).first()).toBeVisible();
  }
  await expect(app.getByRole('combobox', { name: 'Search sessions' })).toBeFocused();
  await snapshot(app, 'list', testInfo);
});

test('without the login cookie the UI says how to log in, and the link logs in', async ({ page, baton }) => {
  await page.goto(baton.url);
  await expect(page.getByRole('heading', { name: 'Log in to Baton' })).toBeVisible();
  await expect(page.getByText('/login?code=…')).toBeVisible();
  await expect(page.getByText('baton login-link')).toBeVisible();
  await page.goto(baton.loginUrl);
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
});

test('the connection badge shows a dropped server and the UI keeps its state', async ({ app, baton }) => {
  await waitForSessions(app);
  await baton.stop();
  await expect(app.getByRole('status').filter({ hasText: 'Disconnected' })).toBeVisible();
  await expect(rows(app).first()).toBeVisible();
});
