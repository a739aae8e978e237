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
  // t cycles the target agent through all fourteen (Generic → Claude), and the brief follows. In the
  // fixture home Claude is not one of the row's radios (those are the agents with the most
  // sessions): the picker's "More" menu shows it, checked, and no radio is.
  const picker = app.getByRole('radiogroup', { name: 'Target agent' });
  const more = app.getByRole('combobox', { name: 'More target agents' });
  await app.keyboard.press('t');
  await expect(more).toHaveValue('claude');
  await expect(picker.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect.poll(async () => app.getByTestId('brief-text').innerText()).not.toBe(before);
  // T goes back; arrow keys inside the row (reached with Tab) also pick.
  await app.keyboard.press('Shift+T');
  await expect(app.getByRole('radio', { name: 'Generic' })).toHaveAttribute('aria-checked', 'true');
  await expect(more).toHaveValue('');
  await app.getByRole('radio', { name: 'Generic' }).focus();
  await app.keyboard.press('ArrowRight');
  // The row's first agent (which one follows this machine's stores); its title is its full name.
  const next = picker.getByRole('radio').nth(1);
  await expect(next).toHaveAttribute('aria-checked', 'true');
  await expect(next).toBeFocused();
  const label = (await next.getAttribute('title'))!;
  // Letters still work with the radio focused: c copies, at once, the brief of the target just
  // picked (waiting for it while it is still being prepared).
  await app.keyboard.press('c');
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(app.getByText(new RegExp(`^Copied the brief \\(.*for ${escaped}\\)\\.$`))).toBeVisible();
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
