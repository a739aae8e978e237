import fs from 'node:fs';
import path from 'node:path';
import { expect, test, waitForSessions } from '../support/fixtures.js';

// `baton serve` is headless: no Browse button. The desktop app's answers (desktopStatus in desktop
// mode, a folder chosen in the system dialog) are then played by intercepting those two calls, so
// the rest of the flow (checkPath, updateSettings, the list) runs against the real server.
test('Browse… exists only in the desktop app; the chosen folder is validated and saved like a typed path', async ({ app, fixtureHome }) => {
  const empty = path.join(path.dirname(fixtureHome.home), 'picked-claude');
  fs.mkdirSync(empty);
  await waitForSessions(app, 10);
  await app.getByRole('button', { name: 'Settings' }).click();
  const claude = app.getByRole('group', { name: 'Claude Code store' });
  await expect(claude.locator('.path-status')).toHaveText(/5 sessions found/);
  const desktop = await app.evaluate(async () => (await fetch('/api/desktopStatus', { method: 'POST', body: '{}' })).json());
  expect(desktop).toMatchObject({ mode: 'headless' });
  await expect(claude.getByRole('button', { name: 'Browse…' })).toHaveCount(0);
  const picked = await app.evaluate(async () => (await fetch('/api/pickFolder', { method: 'POST', body: '{}' })).json());
  expect(picked).toEqual({ path: null, available: false });
  await app.getByRole('button', { name: 'Back to sessions' }).click();

  await app.route('**/api/desktopStatus', (route) =>
    route.fulfill({ json: { mode: 'desktop', hotkey: null, server: null, launchAtLogin: null } }),
  );
  const asked: unknown[] = [];
  await app.route('**/api/pickFolder', (route) => {
    asked.push(route.request().postDataJSON());
    return route.fulfill({ json: { path: empty, available: true } });
  });
  await app.getByRole('button', { name: 'Settings' }).click();
  await claude.getByRole('button', { name: 'Browse…' }).click();
  await expect(claude.getByRole('textbox', { name: 'Claude Code store path' })).toHaveValue(empty);
  await expect(claude.locator('.path-status')).toHaveText(/0 sessions found/);
  await expect(claude.getByTestId('claude-status')).toHaveText(/no sessions|no store/); // saved and re-indexed
  expect(asked).toEqual([{ title: 'Choose the Claude Code store folder', defaultPath: expect.stringMatching(/\.claude/) }]);
  // Disabled agents cannot be browsed for, like their path field.
  const codexSwitch = app.getByRole('switch', { name: 'Read Codex CLI sessions' });
  await codexSwitch.click(); // controlled by the saved settings: unchecked once the save lands
  await expect(codexSwitch).not.toBeChecked();
  await expect(app.getByRole('group', { name: 'Codex CLI store' }).getByRole('button', { name: 'Browse…' })).toBeDisabled();
});
