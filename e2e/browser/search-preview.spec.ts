import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

const TODO_PROMPT = "Please read `todo.txt` and tell me what's on it.";

test('search finds a session by a word from its transcript; the preview shows its goal and brief', async ({ app }, testInfo) => {
  await waitForSessions(app);
  const search = app.getByRole('combobox', { name: 'Search sessions' });
  // "coffee" appears only in the tool output of the todo.txt sessions, never in a title or prompt.
  // Claude's sessions only: thirteen agents' todo.txt sessions would push it below the fold.
  await search.fill('coffee agent:claude');
  const claudeRow = rows(app).filter({ has: app.locator('.agent-badge', { hasText: 'Claude' }) });
  await expect(claudeRow).toHaveCount(1);
  await expect(claudeRow.locator('mark').first()).toHaveText(/coffee/i);
  await expect(rows(app).filter({ hasText: 'greets people' })).toHaveCount(0);
  await snapshot(app, 'search', testInfo);

  await claudeRow.click();
  await expect(app.getByTestId('goal')).toHaveText(TODO_PROMPT);
  const brief = app.getByTestId('brief-text');
  await expect(brief).toContainText('todo.txt');
  await expect(app.getByTestId('token-count')).toHaveText(/\d+ tokens/);
  await expect(app.getByTestId('redaction-count')).toHaveText(/redact/);
  await snapshot(app, 'preview', testInfo);

  // "Open in" hands off to another agent: with the Generic target, not back into Claude.
  const openIn = app.getByRole('button', { name: /^Open in / });
  await expect(openIn).toHaveText('Open in Codex');
  await expect(openIn).toHaveAttribute('title', /^Open in Codex CLI,/);

  // Switching the target agent re-renders the brief for Codex (in the fixture home, Codex is in
  // the picker's "More" menu: the row holds the agents with the most sessions).
  const genericText = await brief.innerText();
  const more = app.getByRole('combobox', { name: 'More target agents' });
  await more.selectOption({ label: 'Codex' });
  await expect(more).toHaveValue('codex');
  await expect(app.getByRole('radiogroup', { name: 'Target agent' }).getByRole('radio', { checked: true })).toHaveCount(0);
  await expect.poll(async () => brief.innerText()).not.toBe(genericText);
  await expect(brief).toContainText(/codex/i);

  // Raw toggle shows the Markdown source.
  await app.getByRole('checkbox', { name: 'Raw' }).check();
  await expect(app.locator('pre.raw')).toContainText('#');

  // Copy puts exactly the brief on the clipboard.
  const rawText = await app.locator('pre.raw').innerText();
  await app.getByRole('button', { name: 'Copy brief' }).click();
  await expect(app.getByText(/Copied the brief/)).toBeVisible();
  const clipboard = await app.evaluate(() => navigator.clipboard.readText());
  expect(clipboard.trim()).toBe(rawText.trim());
  expect(clipboard).toContain('todo.txt');

  // "Open in" follows the target picked.
  await more.selectOption({ label: 'Hermes' });
  await expect(openIn).toHaveText('Open in Hermes');
});

test('snippets are text, never HTML, and agent/project filters narrow the list', async ({ app }) => {
  await waitForSessions(app, 10);
  const total = await rows(app).count();
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Codex CLI' });
  await expect.poll(async () => rows(app).count()).toBeLessThan(total);
  const badges = await app.locator('[role=option] .agent-badge').allInnerTexts();
  expect(new Set(badges.map((b) => b.toLowerCase()))).toEqual(new Set(['codex']));
  await app.getByRole('combobox', { name: 'Filter by project' }).selectOption('/home/ana/scratch');
  await expect(rows(app)).toHaveCount(2);
  for (const title of await app.locator('.row-project').allInnerTexts()) expect(title).toBe('scratch');
  // No element was created from transcript text.
  expect(await app.locator('.session-scroll script, .session-scroll img').count()).toBe(0);
});
