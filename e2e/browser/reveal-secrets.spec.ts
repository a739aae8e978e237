import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

// The Qwen fixture session's first prompt holds a real-looking GitHub token.
const TOKEN = 'ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT';

test('the list, search and preview show secrets masked; "Reveal secrets" shows them on purpose', async ({ app }) => {
  await waitForSessions(app);
  await app.getByRole('combobox', { name: 'Search sessions' }).fill('token');
  const row = rows(app).filter({ hasText: 'My GitHub token is' }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('[REDACTED:github_token]');
  expect(await app.locator('#session-list').innerText()).not.toContain(TOKEN);

  await row.click();
  const goal = app.getByTestId('goal');
  const brief = app.getByTestId('brief-text');
  await expect(goal).toContainText('My GitHub token is [REDACTED:github_token]');
  await expect(brief).toContainText('[REDACTED:github_token]');
  expect(await app.locator('.preview').innerText()).not.toContain(TOKEN);

  const reveal = app.getByRole('checkbox', { name: 'Reveal secrets' });
  await reveal.check();
  await expect(goal).toContainText(`My GitHub token is ${TOKEN}`);
  await expect(brief).toContainText(TOKEN);

  // Off again: masked again; and the next session opens masked.
  await reveal.uncheck();
  await expect(brief).not.toContainText(TOKEN);
  await expect(goal).not.toContainText(TOKEN);
});
