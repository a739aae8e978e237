import { AGENTS } from '../../shared/model.js';
import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

test('the row the user picks is sent to the core with the target shown (the global hotkey copies that brief), resolved to its full id', async ({ app }) => {
  await waitForSessions(app, 3);
  const sent = app.waitForRequest((r) => r.url().endsWith('/api/setSelection'));
  await rows(app).nth(2).click(); // opens its preview: that session is now the selection
  const request = await sent;
  const body = request.postDataJSON() as { session: string; target: string };
  const response = await request.response();
  expect(response?.status()).toBe(200);
  // The core answers with what it stored: the same session, as a full `agent:nativeId` id.
  expect(await response?.json()).toEqual({ session: body.session, target: 'generic' });
  expect(body).toEqual({ session: body.session, target: 'generic' });
  expect(body.session).toMatch(new RegExp(`^(${AGENTS.join('|')}):.+`));
  await expect(app.getByTestId('brief-text')).toBeVisible();

  // Switching the target is sent at once, not after a debounce: a hotkey pressed right after copies it.
  const switched = app.waitForRequest((r) => r.url().endsWith('/api/setSelection'));
  await app.getByRole('combobox', { name: 'More target agents' }).selectOption({ label: 'Codex' });
  expect((await switched).postDataJSON()).toEqual({ session: body.session, target: 'codex' });
});
