import fs from 'node:fs';
import path from 'node:path';
import { makeFixtureHome } from '../../testing/fixture-home.js';
import { expect, test as base, waitForSessions } from '../support/fixtures.js';

const DEMO = '.claude/projects/-home-ana-projects-demo-app';
const SESSION = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';

// A home whose Hermes database is a directory and one of whose Claude sessions has a broken line.
const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  fixtureHome: async ({}, use) => {
    const home = makeFixtureHome();
    const at = (rel: string) => path.join(home.home, rel);
    fs.chmodSync(at('.hermes'), 0o755);
    fs.rmSync(at('.hermes/state.db'));
    fs.mkdirSync(at('.hermes/state.db'));
    fs.chmodSync(at(DEMO), 0o755);
    const file = at(`${DEMO}/${SESSION}.jsonl`);
    const text = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    fs.writeFileSync(file, `${text}{"type":"user", "message": {\n`);
    await use(home);
    home.cleanup();
  },
});

test('Settings shows each store file Baton could not read, with the reason', async ({ app, fixtureHome }) => {
  await waitForSessions(app, 10);
  await app.getByRole('button', { name: 'Settings' }).click();

  const hermes = app.getByRole('group', { name: 'Hermes Agent store' });
  await expect(hermes.getByTestId('hermes-status')).toHaveText(/cannot read .*state\.db: is a directory, not a database file/);
  await expect(hermes.getByTestId('source-problems')).toContainText(`${path.join(fixtureHome.home, '.hermes/state.db')}: is a directory, not a database file`);

  const claude = app.getByRole('group', { name: 'Claude Code store' });
  await expect(claude.getByTestId('source-problems')).toContainText(new RegExp(`${SESSION}\\.jsonl:\\d+ \\(byte \\d+\\): malformed JSON`));
  await expect(claude.getByTestId('claude-status')).toHaveText(/5 sessions/);
});
