/**
 * Stores and sessions Baton could not read stay reported, with the reason, by every later process
 * (not only the one that met them) until they read: `baton index` runs in one process, `baton
 * doctor --json` in another, and the HTTP API the UI asks says the same. Real files throughout: a
 * corrupt opencode.db (random bytes) and one with a truncated header, a directory at
 * ~/.hermes/state.db, a 17 MiB line between valid lines of a Claude session, invalid UTF-8 in a
 * prompt, malformed lines, a last line left unfinished.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentId, Session, SourceProblem, SourceStatus } from '../../shared/model.js';
import { expectedSessions, fixturesDir, makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { createBatonCore } from '../core/service.js';
import { startLocalServer } from '../core/local-server.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

const SCRATCH = '.claude/projects/-home-ana-scratch';
const DEMO = '.claude/projects/-home-ana-projects-demo-app';
/** A Claude session with 3 prompts: the big line goes right after its first. */
const BIG_SESSION = 'dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26';
const UTF8_SESSION = '1acd9001-6177-4eae-b40d-71af70d0b76c';
const STALE_ID = '5a1e0000-0000-4000-8000-00000000dead';
const FRESH_ID = '5a1e0000-0000-4000-8000-00000000f7e5';

interface Doctor {
  sources: SourceStatus[];
}

const claudeUser = (sessionId: string, uuid: string, text: string) =>
  JSON.stringify({ type: 'user', uuid, parentUuid: null, sessionId, cwd: '/home/ana/scratch', timestamp: '2026-11-23T00:00:00.000Z', message: { role: 'user', content: text } });

describe('problems reading stores outlive the process that met them', () => {
  let fixture: FixtureHome;
  const baton = (...args: string[]) => run(process.execPath, [bin, ...args], { env: fixture.env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  const at = (rel: string) => path.join(fixture.home, rel);
  const original = (rel: string) => path.join(fixturesDir(), 'home', rel);
  let bigOffset = 0;

  const doctor = async (): Promise<Map<AgentId, SourceStatus>> => {
    const { stdout } = await baton('doctor', '--json');
    return new Map((JSON.parse(stdout) as Doctor).sources.filter((s) => !s.host).map((s) => [s.agent, s]));
  };
  const problem = (s: SourceStatus | undefined, file: string, kind: SourceProblem['kind']) => s?.problems?.find((p) => p.file === file && p.kind === kind);

  beforeAll(async () => {
    fixture = makeFixtureHome();
    fs.chmodSync(fixture.home, 0o755);
    for (const dir of ['.local/share/opencode', '.hermes', SCRATCH, DEMO]) fs.chmodSync(at(dir), 0o755);

    // OpenCode: random bytes where the database was, and a second store whose header is cut short.
    for (const side of ['-wal', '-shm']) fs.rmSync(at(`.local/share/opencode/opencode.db${side}`), { force: true });
    fs.rmSync(at('.local/share/opencode/opencode.db'));
    fs.writeFileSync(at('.local/share/opencode/opencode.db'), crypto.randomBytes(64 * 1024));
    fs.writeFileSync(at('.local/share/opencode/opencode-dev.db'), fs.readFileSync(original('.local/share/opencode/opencode.db')).subarray(0, 40));
    // Hermes: a directory where its database belongs.
    fs.rmSync(at('.hermes/state.db'));
    fs.mkdirSync(at('.hermes/state.db'));

    // Claude: a 17 MiB line after the first prompt, two malformed lines after it.
    const bigFile = at(`${DEMO}/${BIG_SESSION}.jsonl`);
    const lines = fs.readFileSync(bigFile, 'utf8').split('\n');
    const firstPrompt = lines.findIndex((l) => l.includes('"type":"user"') && !l.includes('tool_result'));
    const before = `${lines.slice(0, firstPrompt + 1).join('\n')}\n`;
    bigOffset = Buffer.byteLength(before);
    const big = `{"type":"user","sessionId":"${BIG_SESSION}","blob":"${'x'.repeat(17 * 1024 * 1024)}"}\n`;
    fs.rmSync(bigFile);
    fs.writeFileSync(bigFile, before + big + '{"type":"assistant", "message": {\n' + '{not json at all\n' + lines.slice(firstPrompt + 1).join('\n'));

    // Claude: a prompt with bytes that are not UTF-8 (a user's turn: kept, with a warning).
    const utf8File = at(`${DEMO}/${UTF8_SESSION}.jsonl`);
    const [head, tail] = claudeUser(UTF8_SESSION, 'bad-utf8-turn', 'brew a caf@@ macchiato').split('@@') as [string, string];
    const content = fs.readFileSync(utf8File);
    fs.rmSync(utf8File);
    fs.writeFileSync(utf8File, Buffer.concat([content, Buffer.from(head), Buffer.from([0xff, 0xfe]), Buffer.from(`${tail}\n`)]));

    // Claude: sessions ending in a partial line, one untouched for an hour (a crashed writer), one just written.
    for (const id of [STALE_ID, FRESH_ID]) {
      fs.writeFileSync(at(`${SCRATCH}/${id}.jsonl`), `${claudeUser(id, `u-${id}`, 'a prompt that was saved')}\n{"type":"assistant","sessionId":"${id}","mess`);
    }
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(at(`${SCRATCH}/${STALE_ID}.jsonl`), hourAgo, hourAgo);

    // The first process: it meets every problem.
    await baton('index');
  }, 180_000);
  afterAll(() => fixture?.cleanup());

  it('a later `baton doctor --json` lists each problem with its reason; the sessions around the bad lines are indexed', async () => {
    const status = await doctor();

    const opencode = status.get('opencode');
    expect(opencode?.state).toBe('unreadable');
    expect(problem(opencode, at('.local/share/opencode/opencode.db'), 'unreadable')?.message).toMatch(/not a database/);
    expect(problem(opencode, at('.local/share/opencode/opencode-dev.db'), 'unreadable')?.message).toMatch(/not a database/);

    const hermes = status.get('hermes');
    expect(hermes?.state).toBe('unreadable');
    expect(problem(hermes, at('.hermes/state.db'), 'unreadable')?.message).toMatch(/is a directory, not a database/);
    expect(hermes?.lastError).toMatch(/state\.db: is a directory/);

    const claude = status.get('claude');
    expect(claude?.state).toBe('ok');
    const bigFile = at(`${DEMO}/${BIG_SESSION}.jsonl`);
    expect(problem(claude, bigFile, 'line_too_long')).toMatchObject({ severity: 'error', count: 1, offset: bigOffset, message: expect.stringMatching(/longer than 16777216 bytes/) });
    // Two malformed lines: one problem, counted, with the first one's reason and place.
    expect(problem(claude, bigFile, 'malformed_lines')).toMatchObject({ count: 2, message: expect.stringMatching(/malformed JSON/) });
    expect(problem(claude, at(`${DEMO}/${UTF8_SESSION}.jsonl`), 'invalid_utf8')).toMatchObject({ severity: 'warning', message: expect.stringMatching(/replaced by U\+FFFD/) });
    // A partial last line is a problem only once it has stayed so.
    expect(problem(claude, at(`${SCRATCH}/${STALE_ID}.jsonl`), 'unfinished_line')?.message).toMatch(/unfinished/);
    expect(problem(claude, at(`${SCRATCH}/${FRESH_ID}.jsonl`), 'unfinished_line')).toBeUndefined();
    // Nothing else: the fixture's other files read cleanly.
    expect(claude?.problems).toHaveLength(4);

    const { stdout: text } = await baton('doctor');
    expect(text).toMatch(/OpenCode: unreadable/);
    expect(text).toContain(`cannot read: ${at('.hermes/state.db')}: is a directory, not a database file`);
    expect(text).toContain(`lines lost: ${bigFile}:`);

    const sessions = JSON.parse((await baton('list', '--json')).stdout) as Session[];
    const want = expectedSessions().find((s) => s.id === BIG_SESSION)!;
    expect(sessions.find((s) => s.id === `claude:${BIG_SESSION}`)).toMatchObject({ userTurns: want.userTurns, firstPrompt: want.firstPrompt });
    const hits = JSON.parse((await baton('search', 'macchiato', '--json')).stdout) as { sessionId: string; snippet: string }[];
    expect(hits.map((h) => h.sessionId)).toContain(`claude:${UTF8_SESSION}`);
  }, 120_000);

  it('the HTTP API’s source status (what the UI shows) carries the problems another process met', async () => {
    const dataDir = fixture.env.BATON_HOME!;
    const core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir, ingest: 'inline', watch: false, log: () => undefined });
    const server = await startLocalServer(core, 0);
    try {
      await core.start();
      await core.whenCurrent();
      const token = fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
      const res = await fetch(`${server.url}/api/sourceStatus`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
      const statuses = (await res.json()) as SourceStatus[];
      const claude = statuses.find((s) => s.agent === 'claude' && !s.host);
      expect(problem(claude, at(`${DEMO}/${BIG_SESSION}.jsonl`), 'line_too_long')?.offset).toBe(bigOffset);
      expect(statuses.find((s) => s.agent === 'hermes')?.state).toBe('unreadable');
    } finally {
      await server.close();
      await core.close();
    }
  }, 120_000);

  it('once the files are fixed, the problems are gone', async () => {
    fs.rmSync(at('.local/share/opencode/opencode-dev.db'));
    fs.rmSync(at('.local/share/opencode/opencode.db'));
    for (const f of ['opencode.db', 'opencode.db-wal', 'opencode.db-shm']) fs.copyFileSync(original(`.local/share/opencode/${f}`), at(`.local/share/opencode/${f}`));
    fs.rmdirSync(at('.hermes/state.db'));
    fs.copyFileSync(original('.hermes/state.db'), at('.hermes/state.db'));
    for (const id of [BIG_SESSION, UTF8_SESSION]) {
      fs.rmSync(at(`${DEMO}/${id}.jsonl`));
      fs.copyFileSync(original(`${DEMO}/${id}.jsonl`), at(`${DEMO}/${id}.jsonl`));
    }
    fs.appendFileSync(at(`${SCRATCH}/${STALE_ID}.jsonl`), 'age":"done"}\n');

    const status = await doctor();
    for (const agent of ['claude', 'opencode', 'hermes'] as const) {
      expect(status.get(agent)?.problems, agent).toEqual([]);
      expect(status.get(agent)?.state, agent).toBe('ok');
    }
    expect(status.get('opencode')?.sessions).toBeGreaterThan(0);
    expect(status.get('hermes')?.sessions).toBeGreaterThan(0);
  }, 120_000);
});
