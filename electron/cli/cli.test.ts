// The `baton` command as a user runs it: a real process, HOME pointed at a copy of the fixture stores.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { removeServerFile, writeServerFile } from '../core/server/server-file.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

describe('baton CLI', () => {
  let fixture: FixtureHome;
  const baton = (...args: string[]) => run(process.execPath, [bin, ...args], { env: fixture.env, timeout: 60_000 });

  beforeAll(() => {
    fixture = makeFixtureHome();
  });
  afterAll(() => fixture.cleanup());

  it('lists that HOME’s sessions as JSON, newest first', async () => {
    // The recorded facts as they are (prompts with secrets included): --no-redact. Masking: cli-redaction.test.ts.
    const { stdout } = await baton('list', '--json', '--no-redact');
    const sessions = JSON.parse(stdout) as Record<string, unknown>[];
    const expected = expectedSessions();
    expect(sessions).toHaveLength(expected.length);
    for (const want of expected) {
      const got = sessions.find((s) => s.id === `${want.agent}:${want.id}`);
      expect(got).toMatchObject({ agent: want.agent, nativeId: want.id, cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns, parentId: want.parentId ? `${want.agent}:${want.parentId}` : null });
      for (const key of ['title', 'toolNames', 'startedAt', 'updatedAt']) expect(got).toHaveProperty(key);
    }
    const { stdout: codexOnly } = await baton('list', '--agent', 'codex', '--json');
    expect((JSON.parse(codexOnly) as { agent: string }[]).every((s) => s.agent === 'codex')).toBe(true);
  });

  it('indexes: a rebuild reads every store, a second run reads nothing', async () => {
    const rebuilt = await baton('index', '--rebuild');
    const [, sessions, files] = /^(\d+) sessions .*from (\d+) changed file\(s\)/.exec(rebuilt.stdout) ?? [];
    expect(Number(sessions)).toBe(expectedSessions().length);
    expect(Number(files)).toBeGreaterThan(4);
    const again = await baton('index');
    expect(again.stdout).toMatch(/read 0\.0 MB from 0 changed file\(s\)/);
  });

  it('refuses to rebuild an index a running Baton holds open, and leaves it as it was', async () => {
    const dataDir = fixture.env.BATON_HOME!;
    await baton('index');
    const index = path.join(dataDir, 'index.db');
    const before = fs.statSync(index).ino;
    // This test's own process stands in for the running Baton: server.json names a live pid.
    writeServerFile(dataDir, { pid: process.pid, port: 1, url: 'http://127.0.0.1:1', version: 'test', startedAt: new Date().toISOString() });
    try {
      const refused = await baton('index', '--rebuild').then(
        () => null,
        (err: { code?: number; stderr?: string }) => err,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toMatch(/Baton is running for this data dir \(pid \d+, http:\/\/127\.0\.0\.1:1\).*stop `baton serve`/);
      expect(fs.statSync(index).ino).toBe(before);
    } finally {
      removeServerFile(dataDir, process.pid);
    }
    expect((await baton('index', '--rebuild')).stdout).toMatch(/sessions/);
  });

  it('searches with the query language and prints the documented JSON fields', async () => {
    const { stdout } = await baton('search', 'coffee', '--agent', 'hermes', '--json');
    const hits = JSON.parse(stdout) as Record<string, unknown>[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(hit).toMatchObject({ agent: 'hermes' });
      for (const key of ['sessionId', 'nativeId', 'title', 'role', 'snippet']) expect(hit).toHaveProperty(key);
    }
    const { stdout: hostile } = await baton('search', '"NEAR(', '--json');
    expect(JSON.parse(hostile)).toBeInstanceOf(Array);
  });

  it('prints a brief, saves a checkpoint and restores it', async () => {
    const brief = await baton('brief', 'claude:b42c0a6e', '--target', 'codex');
    expect(brief.stdout).toContain('Please run `git status` and then read `README.md`.');
    expect(brief.stderr).toMatch(/tokens/);
    const saved = await baton('checkpoint', 'claude:b42c0a6e', '--summary', 'Read the README', '--decision', 'Keep the greeting', '--next', 'Add punctuation');
    expect(saved.stdout).toMatch(/Checkpoint .* saved/);
    const restored = await baton('restore', 'claude:b42c0a6e');
    expect(restored.stdout).toContain('Read the README');
    expect(restored.stdout).toContain('Keep the greeting');
  });

  it('reports store status, and fails with one clear line on a bad reference', async () => {
    const { stdout } = await baton('doctor', '--json');
    const doctor = JSON.parse(stdout) as { sources: { agent: string; state: string }[]; index: { sessions: number } };
    expect(doctor.sources.map((s) => s.state)).toEqual(doctor.sources.map(() => 'ok'));
    expect(doctor.sources.map((s) => s.agent)).toContain('pi');
    expect(doctor.index.sessions).toBe(expectedSessions().length);
    const failure = await baton('brief', 'no such session at all').then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split('\n').filter((l) => !l.startsWith('npm ')).at(-1)).toMatch(/^baton: No session matches/);
  });
});
