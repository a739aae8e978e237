import { AGENTS, AGENT_LABELS } from '../../shared/model.js';
import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

test('the shell renders, connects and lists the fixture sessions', async ({ app }, testInfo) => {
  await expect(app.getByRole('heading', { name: 'Baton' })).toBeVisible();
  await expect(app.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await waitForSessions(app, 10);
  await expect(app.getByRole('combobox', { name: 'Search sessions' })).toBeFocused();
  await snapshot(app, 'list', testInfo);
  // Every agent's fixture store shows up (the newest rows hide the rest below the fold, so each
  // agent is checked through the agent filter), each row with its badge.
  const filter = app.getByRole('combobox', { name: 'Filter by agent' });
  for (const agent of AGENTS) {
    await filter.selectOption({ label: AGENT_LABELS[agent] });
    await expect(app.locator(`[role=option] .agent-badge[data-agent="${agent}"]`).first()).toBeVisible();
    await expect(app.locator(`[role=option] .agent-badge:not([data-agent="${agent}"])`)).toHaveCount(0);
  }
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
