import fs from 'node:fs';
import path from 'node:path';
import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

test('pointing Claude at an empty folder empties its sessions and says why; restoring brings them back', async ({ app, fixtureHome }, testInfo) => {
  const empty = path.join(path.dirname(fixtureHome.home), 'empty-claude');
  fs.mkdirSync(empty);
  await waitForSessions(app, 10);
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Claude Code' });
  await expect(rows(app)).toHaveCount(5);

  await app.getByRole('button', { name: 'Settings' }).click();
  const claude = app.getByRole('group', { name: 'Claude Code store' });
  const pathInput = claude.getByRole('textbox', { name: 'Claude Code store path' });
  // The detected default is shown, and it is valid.
  await expect(pathInput).toHaveAttribute('placeholder', /\.claude/);
  await expect(claude.locator('.path-status')).toHaveText(/5 sessions found/);
  await snapshot(app, 'settings', testInfo);

  await pathInput.fill(empty);
  await expect(claude.locator('.path-status')).toHaveText(/0 sessions found/); // live validation before saving
  await pathInput.press('Enter');
  await expect(claude.getByTestId('claude-status')).toHaveText(/no sessions|no store/);

  await app.getByRole('button', { name: 'Back to sessions' }).click();
  await expect(rows(app)).toHaveCount(0);
  await expect(app.getByRole('heading', { name: 'No Claude Code sessions' })).toBeVisible();
  await expect(app.getByText(empty)).toBeVisible();
  await snapshot(app, 'empty-claude', testInfo);

  await app.getByRole('button', { name: 'Open Settings' }).click();
  await claude.getByRole('button', { name: 'Use default' }).click();
  await expect(claude.getByTestId('claude-status')).toHaveText(/5 sessions/);
  await app.getByRole('button', { name: 'Back to sessions' }).click();
  await expect(rows(app)).toHaveCount(5);
});

test('settings apply live: theme, default target and a path that does not exist', async ({ app }) => {
  await waitForSessions(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  // The page starts in the system's scheme (light here); the chosen theme wins over it, both ways.
  const background = () => app.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe('rgb(244, 244, 246)');
  await app.getByLabel('Theme').selectOption('dark');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).toBe('rgb(28, 28, 31)');
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.getByLabel('Theme').selectOption('light');
  await expect.poll(background).toBe('rgb(244, 244, 246)');
  await app.getByLabel('Theme').selectOption('dark');
  await app.getByLabel('Default target agent').selectOption('hermes');
  const codex = app.getByRole('group', { name: 'Codex CLI store' });
  await codex.getByRole('textbox').fill('/definitely/not/here');
  await expect(codex.locator('.path-status')).toHaveText(/Does not exist/);
  await expect(codex.locator('.path-status')).toHaveAttribute('data-ok', 'false');
  // Reload: the saved theme and target are read back from the server.
  await app.reload();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await waitForSessions(app);
  await rows(app).first().click();
  await expect(app.getByRole('radio', { name: 'Hermes' })).toHaveAttribute('aria-checked', 'true');
});
