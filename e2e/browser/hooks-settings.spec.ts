import fs from 'node:fs';
import path from 'node:path';
import { expect, test, waitForSessions } from '../support/fixtures.js';

test("Settings installs Baton's Codex hooks, says what Codex still needs, and removes them again", async ({ app, fixtureHome }) => {
  await waitForSessions(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  const hooks = app.getByRole('group', { name: /Hooks/ });
  const codex = hooks.getByTestId('hooks-codex');
  await expect(codex).toContainText('Not installed');
  await expect(hooks.getByTestId('hooks-hermes')).toContainText(/no shell hook before it compresses/);
  await expect(hooks.getByTestId('hooks-gemini')).toContainText(/PreCompress checkpoint/);
  await expect(hooks.getByTestId('hooks-qwen')).toContainText('Not installed');

  await codex.getByRole('button', { name: 'Install' }).click();
  await expect(codex).toContainText('Installed');
  await expect(codex).toContainText(/trust Baton's hooks/);
  const file = path.join(fixtureHome.home, '.codex', 'hooks.json');
  const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> };
  expect(Object.keys(written.hooks)).toEqual(['SessionStart', 'PreCompact', 'Stop']);

  await codex.getByRole('button', { name: 'Remove' }).click();
  await expect(codex).toContainText('Not installed');
  expect(fs.existsSync(file)).toBe(false);
});
