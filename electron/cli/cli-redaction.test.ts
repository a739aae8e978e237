/**
 * `baton list`, `search`, `brief` and `restore` print no secret (agents run them through their shell
 * tool) unless the person types `--no-redact`; search still finds a session by a word next to a
 * secret. The real CLI in a child process, over a fixture home holding sessions with secrets, both
 * on its own index and through a running Baton (which never reveals to the token).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { leakedSecrets, SECRET_SESSION_IDS, SECRETS, writeSecretSessions } from '../../testing/secret-sessions.js';
import { claudeProjectDir, writeClaudeTranscript } from '../../testing/briefs/claude-transcript.js';
import { createBatonCore, type BatonCore } from '../core/service.js';
import { startLocalServer, type LocalServer } from '../core/local-server.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

let home: FixtureHome;
const baton = async (args: string[], env: NodeJS.ProcessEnv = home.env): Promise<{ stdout: string; stderr: string }> => {
  try {
    return await run(process.execPath, [bin, ...args], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout: string; stderr: string };
    return { stdout: e.stdout, stderr: e.stderr };
  }
};
const own = () => ({ ...home.env, BATON_NO_SERVER: '1' });

beforeAll(async () => {
  home = makeFixtureHome();
  writeSecretSessions(home.home);
  // A token in a folder name: Claude Code names the session's folder after it (`ghp_` becomes
  // `ghp-`), and a malformed line there makes `doctor` print that path.
  const tokenCwd = `/home/ana/${SECRETS.github}/tools`;
  const tokenSession = '70ce0000-0000-4000-8000-00000000000a';
  writeClaudeTranscript({ home: home.home, sessionId: tokenSession, cwd: tokenCwd, turns: [{ role: 'user', text: 'Tidy the tools folder' }] });
  fs.appendFileSync(path.join(claudeProjectDir(home.home, tokenCwd), `${tokenSession}.jsonl`), `{"type":"user" ${SECRETS.openai}\n`);
  // One index pass first, so the parallel commands below only read it.
  await baton(['index'], own());
}, 120_000);
afterAll(() => home.cleanup());

describe('CLI output on its own index', () => {
  it('list and search print masked titles and snippets, and still find the session by a neighbouring word', async () => {
    const [list, json, search] = await Promise.all([
      baton(['list', '--project', 'vault-app'], own()),
      baton(['list', '--project', 'vault-app', '--json'], own()),
      baton(['search', 'quokkarelay', '--json'], own()),
    ]);
    expect(list.stdout).toContain('zebrafinch');
    expect(json.stdout).toContain('[REDACTED:github_token]');
    expect(search.stdout).toContain(SECRET_SESSION_IDS[0]);
    expect(search.stdout).toContain('[REDACTED:openai_api_key]');
    for (const out of [list, json, search]) expect(leakedSecrets(out.stdout + out.stderr)).toEqual([]);
  }, 120_000);

  it('brief, restore and an ambiguous reference print no secret', async () => {
    const [brief, restore, ambiguous] = await Promise.all([
      baton(['brief', SECRET_SESSION_IDS[0]], own()),
      baton(['restore', SECRET_SESSION_IDS[0]], own()),
      baton(['brief', 'zebrafinch'], own()),
    ]);
    expect(brief.stdout).toContain('[REDACTED:');
    expect(restore.stdout).toContain('[REDACTED:');
    expect(ambiguous.stderr).toMatch(/more than one|ambiguous|matches/i);
    for (const out of [brief, restore, ambiguous]) expect(leakedSecrets(out.stdout + out.stderr)).toEqual([]);
  }, 120_000);

  it('doctor and a session path print no secret, even one a store mangled into a folder name', async () => {
    const [doctor, json, list] = await Promise.all([baton(['doctor'], own()), baton(['doctor', '--json'], own()), baton(['list', '--json'], own())]);
    expect(doctor.stdout).toContain('lines lost');
    expect(json.stdout).toContain('[REDACTED:github_token]');
    for (const out of [doctor, json, list]) expect(leakedSecrets(out.stdout + out.stderr)).toEqual([]);
  }, 120_000);

  it('--no-redact shows them, on purpose', async () => {
    const [list, search, restore] = await Promise.all([
      baton(['list', '--project', 'vault-app', '--json', '--no-redact'], own()),
      baton(['search', 'quokkarelay', '--json', '--no-redact'], own()),
      baton(['restore', SECRET_SESSION_IDS[0], '--no-redact'], own()),
    ]);
    expect(list.stdout).toContain(SECRETS.github);
    expect(search.stdout).toContain(SECRETS.openai);
    expect(restore.stdout).toContain(SECRETS.awsSecret);
  }, 120_000);
});

describe('CLI output through a running Baton', () => {
  let core: BatonCore;
  let server: LocalServer;
  beforeAll(async () => {
    core = await createBatonCore({ environment: { env: home.env, home: home.home, platform: process.platform }, dataDir: home.env.BATON_HOME!, log: () => {} });
    await core.start();
    await core.syncNow();
    server = await startLocalServer(core, 0);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await core.close();
  });

  it('is masked by the server, and --no-redact reads the index itself instead of asking it', async () => {
    const [masked, revealed] = await Promise.all([
      baton(['search', 'quokkarelay', '--json']),
      baton(['search', 'quokkarelay', '--json', '--no-redact']),
    ]);
    expect(masked.stdout).toContain('[REDACTED:openai_api_key]');
    expect(leakedSecrets(masked.stdout)).toEqual([]);
    expect(revealed.stdout).toContain(SECRETS.openai);
  }, 120_000);
});
