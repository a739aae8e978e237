// What a start-up hook injects goes into an agent's context, and from there to its model provider:
// the pending brief is stored redacted even when the user turned brief redaction off (that setting
// is for what the person reads; an agent never gets a secret from Baton).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { leakedSecrets, SECRET_SESSION_IDS, SECRETS, writeSecretSessions } from '../../../testing/secret-sessions.js';
import { runHook } from './hook-main.js';

let fixture: FixtureHome;
let core: BatonCore;
let project: string;

beforeAll(async () => {
  fixture = makeFixtureHome();
  writeSecretSessions(fixture.home);
  project = path.join(fixture.home, 'work', 'vault-app');
  fs.mkdirSync(project, { recursive: true });
  core = await createBatonCore({
    environment: { env: fixture.env, platform: process.platform, home: fixture.home },
    dataDir: String(fixture.env.BATON_HOME),
    ingest: 'inline',
    watch: false,
    log: () => {},
  });
  await core.start();
  await core.whenCurrent();
  core.settings.update({ redact: false });
}, 60_000);
afterAll(async () => {
  await core.close();
  fixture.cleanup();
});

it('a handoff made with brief redaction off still reaches the next agent masked', async () => {
  const result = await core.handoff.createHandoff({ sessionId: `claude:${SECRET_SESSION_IDS[0]}`, target: 'codex', projectDir: project });
  // The person chose to see secrets: what is handed back to them (and printed with --no-redact) keeps them.
  expect(result.brief).toContain(SECRETS.github);

  let injected = '';
  await runHook(['session-start', '--agent', 'codex'], {
    stdin: async () => JSON.stringify({ session_id: 'thread-9', cwd: project, source: 'startup' }),
    stdout: (t) => (injected += t),
    env: fixture.env,
    cwd: project,
  });
  expect(injected).toContain('Baton handoff');
  expect(injected).toContain('[REDACTED:github_token]');
  expect(leakedSecrets(injected)).toEqual([]);
});
