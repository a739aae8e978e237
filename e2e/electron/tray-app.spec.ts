/**
 * The tray app itself: Electron main + preload + the same renderer, talking over IPC. Runs only
 * where the Electron runtime was downloaded and a display exists; otherwise skipped with the
 * reason `npm start` would give (the runtime cannot be downloaded on every machine).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { decideStartMode } from '../../electron/app/start-mode.js';
import { makeFixtureHome } from '../../testing/fixture-home.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const decision = decideStartMode({
  root,
  platform: process.platform,
  env: process.env,
  exists: fs.existsSync,
  readText: (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null),
});

test('the popover lists sessions over IPC, previews a brief and copies it', async () => {
  test.skip(decision.mode !== 'electron', `Electron runtime unavailable: ${decision.mode === 'headless' ? decision.reason : ''}`);
  if (decision.mode !== 'electron') return;
  const home = makeFixtureHome();
  const app = await electron.launch({ executablePath: decision.binary, args: [decision.main, '--no-sandbox'], env: home.env as Record<string, string> });
  try {
    const window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    // The preload exposed the bridge, so the renderer chose IPC.
    expect(await window.evaluate(() => (window as unknown as { baton?: { transport: string } }).baton?.transport)).toBe('ipc');
    await expect(window.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    const rows = window.locator('#session-list').getByRole('option');
    await expect.poll(async () => rows.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(10);

    await window.getByRole('combobox', { name: 'Search sessions' }).fill('coffee');
    await expect(rows.first().locator('mark').first()).toHaveText(/coffee/i);
    await window.keyboard.press('Enter');
    await expect(window.getByTestId('goal')).toContainText('todo.txt');
    await expect(window.getByTestId('brief-text')).toContainText('todo.txt');
    await window.getByRole('button', { name: 'Copy brief' }).click();
    await expect(window.getByText(/Copied the brief/)).toBeVisible();
    const clipboard = await app.evaluate(({ clipboard }) => clipboard.readText());
    expect(clipboard).toContain('todo.txt');
  } finally {
    await app.close();
    home.cleanup();
  }
});
