import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, waitForSessions } from '../support/fixtures.js';

test('Settings switches unattended continuation on for a project folder (agents in order) and off again, stored in baton.db', async ({ app, fixtureHome }) => {
  const project = path.join(fixtureHome.home, 'work', 'carry-on');
  fs.mkdirSync(project, { recursive: true });
  await waitForSessions(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  const section = app.getByRole('group', { name: 'Carry on by itself' });
  await expect(section.getByTestId('auto-rule')).toHaveCount(0);

  // A folder that does not exist is refused with the reason, and nothing is stored.
  await section.getByLabel('Project folder').fill(path.join(project, 'missing'));
  await section.getByRole('button', { name: 'Switch on' }).click();
  await expect(section.getByRole('alert')).toContainText('is not a folder on this machine');
  await expect(section.getByTestId('auto-rule')).toHaveCount(0);

  await section.getByLabel('Project folder').fill(project);
  await section.getByLabel('Agent that carries on').selectOption('codex');
  await section.getByLabel('Then, if it is at its limit').selectOption('gemini');
  await section.getByRole('button', { name: 'Switch on' }).click();
  const rule = section.getByTestId('auto-rule');
  await expect(rule).toHaveCount(1);
  await expect(rule).toContainText(project);
  await expect(rule).toContainText('→ Codex CLI, then Gemini CLI');

  const batonDb = path.join(fixtureHome.env.BATON_HOME ?? path.join(path.dirname(fixtureHome.home), 'baton'), 'baton.db');
  const stored = () => {
    const db = new Database(batonDb, { readonly: true });
    try {
      return db.prepare('SELECT folder, targets, triggers FROM auto_rules').all();
    } finally {
      db.close();
    }
  };
  expect(stored()).toEqual([{ folder: fs.realpathSync(project), targets: '["codex","gemini"]', triggers: '["limit"]' }]);

  await rule.getByRole('button', { name: /Switch off/ }).click();
  await expect(section.getByTestId('auto-rule')).toHaveCount(0);
  expect(stored()).toEqual([]);
});
