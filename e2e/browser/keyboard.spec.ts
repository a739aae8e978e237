import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

test('the whole flow works with the keyboard alone', async ({ app }) => {
  await waitForSessions(app, 10);
  const search = app.getByRole('combobox', { name: 'Search sessions' });
  await expect(search).toBeFocused();

  await app.keyboard.type('shopping');
  await expect(rows(app).first().locator('mark').first()).toBeVisible();
  const count = await rows(app).count();
  expect(count).toBeGreaterThan(1);
  // ↓ moves the selection; ↑ comes back.
  await expect(rows(app).nth(0)).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('ArrowDown');
  await expect(rows(app).nth(1)).toHaveAttribute('aria-selected', 'true');
  const chosen = await rows(app).nth(1).getAttribute('data-session-id');
  await app.keyboard.press('Enter');

  await expect(app.getByTestId('goal')).toContainText('todo.txt');
  await expect(app.getByTestId('brief-text')).toBeVisible();
  const before = await app.getByTestId('brief-text').innerText();
  // t cycles the target agent (Generic → Claude), and the brief follows.
  await app.keyboard.press('t');
  await expect(app.getByRole('radio', { name: 'Claude' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => app.getByTestId('brief-text').innerText()).not.toBe(before);
  // Arrow keys inside the target picker (reached with Tab) also pick.
  await app.getByRole('radio', { name: 'Claude' }).focus();
  await app.keyboard.press('ArrowRight');
  await expect(app.getByRole('radio', { name: 'Codex' })).toHaveAttribute('aria-checked', 'true');
  // Letters still work with the radio focused: c copies, at once, the brief of the target just
  // picked (waiting for it while it is still being prepared).
  await app.keyboard.press('c');
  await expect(app.getByText(/Copied the brief \(.*for Codex/)).toBeVisible();
  const clipboard = await app.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toContain('todo.txt');

  // Esc goes back to the list with the search and selection kept; Esc again clears the search.
  await app.keyboard.press('Escape');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('shopping');
  await expect(app.locator(`[data-session-id="${chosen}"]`)).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('Escape');
  await expect(search).toHaveValue('');

  // Ctrl+C with nothing selected copies the selected session's brief straight from the list.
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Control+c');
  await expect(app.getByText(/Copied the brief for/)).toBeVisible();

  // Ctrl+, opens settings; Esc returns.
  await app.keyboard.press('Control+,');
  await expect(app.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(search).toBeFocused();
});
