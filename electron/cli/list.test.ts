// `baton list` as people read it: IDs they can type back, columns aligned by display width, and
// subagents under their parent. The table itself, then the real command over the fixture stores.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../shared/display-width.js';
import type { Session } from '../../shared/model.js';
import { createBatonCore } from '../core/service.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { sessionTable } from './commands/list-table.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

function session(id: string, title: string, parentId: string | null = null): Session {
  const [agent, nativeId] = id.split(':') as [Session['agent'], string];
  return {
    id, agent, nativeId, title, cwd: '/home/ana/projects/demo-app', gitBranch: 'main', gitCommit: null, model: null,
    startedAt: '2026-11-22T03:00:00Z', updatedAt: '2026-11-22T03:05:00Z', firstPrompt: null, userTurns: 1, messageCount: 2,
    toolNames: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, parentId, sourcePath: `/tmp/${nativeId}`, bytes: 1,
  };
}

/** The display column where `needle` starts on `line`. */
const columnOf = (line: string, needle: string): number => displayWidth(line.slice(0, line.indexOf(needle)));

describe('the list table', () => {
  it('aligns columns by display width with CJK and emoji titles, and nests subagents under their parent', () => {
    const sessions = [
      session('pi:01a20eb0-2a88', 'こんにちは！请 read todo.txt 然后用中文总结一下。ありがとう 🙏 and then some more words'),
      session('claude:sub-1', 'Explore the repository', 'claude:main-1'),
      session('gemini:5e07', '丸め用語の確認 (glossaire) ✨'),
      session('claude:main-1', 'Plain ASCII title'),
      session('codex:orphan', 'Forked from a session not listed', 'codex:gone'),
    ];
    const lines = sessionTable(sessions, sessions).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    const directory = lines.map((l) => columnOf(l, '/home/ana') ).slice(1);
    expect(new Set(directory).size).toBe(1); // every row's DIRECTORY starts in the same column
    expect(columnOf(lines[0]!, 'DIRECTORY')).toBe(directory[0]);
    const order = lines.slice(1).map((l) => l.split(/\s{2,}/)[2]);
    expect(order).toEqual(['01a2', '5e07', 'main', 'sub-', 'orph']);
    expect(lines[4]).toMatch(/ ↳ Explore the repository/);
    expect(lines[5]).toMatch(/ ↳ \(subagent\) Forked from/);
  });
});

describe('baton list over the fixture stores', () => {
  let fixture: FixtureHome;
  beforeAll(() => {
    fixture = makeFixtureHome();
  });
  afterAll(() => fixture.cleanup());

  it('prints IDs that are unique and that a <ref> accepts', async () => {
    const { stdout } = await run(process.execPath, [bin, 'list'], { env: fixture.env, timeout: 60_000 });
    const rows = stdout.trimEnd().split('\n').slice(1).map((line) => line.split(/\s{2,}/));
    expect(rows.length).toBeGreaterThan(10);
    const ids = rows.map((cells) => cells[2]!);
    expect(new Set(ids).size).toBe(ids.length);
    const core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir: String(fixture.env.BATON_HOME), ingest: 'inline', watch: false, log: () => {} });
    try {
      await core.start();
      await core.whenCurrent();
      for (const [, agent, id] of rows) expect(core.resolveSession(id!)).toMatch(new RegExp(`^${agent}:`));
    } finally {
      await core.close();
    }
  });
});
