import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Message, Session } from '../../../../shared/model.js';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../../../../testing/fixture-home.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../types.js';
import { createPiAdapter } from './pi-adapter.js';

class MiniIndex {
  sessions = new Map<string, Session>();
  messages = new Map<string, Message[]>();
  cursors = new Map<string, JsonValue>();
  diagnostics: Omit<Diagnostic, 'at'>[] = [];

  async readUnit(adapter: SourceAdapter, unit: SourceUnit): Promise<ReadBatch[]> {
    const out: ReadBatch[] = [];
    const ctx = { cursor: this.cursors.get(unit.key) ?? null, diagnostic: (d: Omit<Diagnostic, 'at'>) => this.diagnostics.push(d) };
    for await (const b of adapter.read(unit, ctx)) {
      for (const id of b.resetSessions) this.messages.delete(id);
      for (const s of b.sessions) this.sessions.set(s.id, s);
      for (const m of b.messages) {
        const list = this.messages.get(m.sessionId) ?? [];
        expect(m.seq).toBe(list.length);
        list.push(m);
        this.messages.set(m.sessionId, list);
      }
      if (b.cursor !== undefined) this.cursors.set(unit.key, b.cursor);
      out.push(b);
    }
    return out;
  }

  async readAll(adapter: SourceAdapter): Promise<ReadBatch[]> {
    const out: ReadBatch[] = [];
    for (const unit of await adapter.listUnits()) out.push(...(await this.readUnit(adapter, unit)));
    return out;
  }
}

const DEMO = ['.pi', 'agent', 'sessions', '--home-ana-projects-demo-app--'];
const BRANCHED = '01a20eb0-2de1-73b9-b24a-d1eec965782e';
const FORK = '01a20eb0-ed27-774c-bfba-4536f30b8477';
const FORK_SOURCE = '01a20eae-b8dd-7715-8f92-53b34506f09f';
const COMPACTED = '01a20eaf-9091-708d-8e1b-4215635def39';
const EXTENSION = '01a20eb5-0c50-756a-ab35-d2b1d75be8c8';
const fileOf = (home: string, id: string) => {
  const dir = path.join(home, ...DEMO);
  return path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(`_${id}.jsonl`))!);
};
const inPath = (s: Session, seq: number) => !(s.otherBranchSeqs ?? []).some(([a, b]) => seq >= a && seq <= b);

describe('pi adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.pi', 'agent', 'sessions');
  });
  afterEach(() => fx.cleanup());

  it('recovers every expected pi session exactly', async () => {
    const adapter = createPiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const expected = expectedSessions().filter((s) => (s.agent as string) === 'pi');
    expect(expected.length).toBe(11);
    expect([...index.sessions.keys()].sort()).toEqual(expected.map((e) => `pi:${e.id}`).sort());
    for (const e of expected) {
      const s = index.sessions.get(`pi:${e.id}`)!;
      expect({ id: e.id, cwd: s.cwd, gitBranch: s.gitBranch, firstPrompt: s.firstPrompt, userTurns: s.userTurns, title: s.title }).toEqual({
        id: e.id,
        cwd: e.cwd,
        gitBranch: e.gitBranch,
        firstPrompt: e.firstPrompt,
        userTurns: e.userTurns,
        title: e.title,
      });
      expect([...s.toolNames].sort()).toEqual([...new Set(e.toolNames)].sort());
      expect(s.parentId).toBe(e.parentId ? `pi:${e.parentId}` : null);
      expect(s.model).toBe('mock-sonnet');
      expect(s.sourcePath).toBe(path.join(fx.home, e.files[0]!.replace(/^pi\//, '')));
    }
    expect(index.diagnostics).toEqual([]);
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null });
  });

  it('keeps the abandoned branch searchable but marks it; the current path drives prompts and tools', async () => {
    const index = new MiniIndex();
    await index.readAll(createPiAdapter([root]));
    const s = index.sessions.get(`pi:${BRANCHED}`)!;
    const msgs = index.messages.get(`pi:${BRANCHED}`)!;
    const abandoned = msgs.find((m) => m.role === 'user' && m.text.startsWith('Please read `src/app.js`'))!;
    expect(abandoned).toBeDefined();
    expect(inPath(s, abandoned.seq)).toBe(false);
    // Every message of the abandoned branch (prompt, answer, read call and result) is off the path…
    const off = msgs.filter((m) => !inPath(s, m.seq));
    expect(off.map((m) => m.nativeId)).toEqual(expect.arrayContaining(['560d6f00', '1a966b62', 'de2b22f5', '80d927e7']));
    expect(new Set(off.map((m) => m.nativeId))).toEqual(new Set(['560d6f00', '1a966b62', 'de2b22f5', '80d927e7']));
    // …and the prompts on the path are the two pi's own /session counts.
    expect(msgs.filter((m) => m.role === 'user' && inPath(s, m.seq)).map((m) => m.text)).toEqual([
      'Run `git branch` and tell me which branches exist.',
      'Actually, read `package.json` instead and tell me the app version.',
    ]);
    // The branch summary pi wrote is there for the brief.
    expect(msgs.some((m) => m.role === 'system' && m.text.includes('explored a different conversation branch'))).toBe(true);
    // A plain list has no other branches.
    expect(index.sessions.get(`pi:${FORK_SOURCE}`)!.otherBranchSeqs).toEqual([]);
  });

  it('a fork links to its source and counts the copied responses once; cost is pi’s own USD', async () => {
    const index = new MiniIndex();
    await index.readAll(createPiAdapter([root]));
    const source = index.sessions.get(`pi:${FORK_SOURCE}`)!;
    const fork = index.sessions.get(`pi:${FORK}`)!;
    expect(fork.parentId).toBe(`pi:${FORK_SOURCE}`);
    // The fork's transcript starts with the copied conversation (a brief of the fork needs it)…
    expect(index.messages.get(`pi:${FORK}`)![0]!.text).toBe(source.firstPrompt);
    // …but its usage is only the responses written after the fork.
    const lines = fs.readFileSync(fileOf(fx.home, FORK), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const header = lines[0] as { timestamp: string };
    const own = lines.filter((l) => (l.message as { role?: string } | undefined)?.role === 'assistant' && (l.timestamp as string) >= header.timestamp);
    const sum = (key: 'input' | 'output') => own.reduce((a, l) => a + ((l.message as { usage: Record<string, number> }).usage[key] ?? 0), 0);
    const cost = own.reduce((a, l) => a + (l.message as { usage: { cost: { total: number } } }).usage.cost.total, 0);
    expect(own.length).toBeGreaterThan(0);
    expect(fork.usage).toMatchObject({ input: sum('input'), output: sum('output') });
    expect(fork.usage.costUsd).toBeCloseTo(cost, 12);
    expect(fork.startedAt).toBe(header.timestamp);
    expect(source.usage.costUsd).toBeGreaterThan(0);
  });

  it('compaction summaries are kept; !cmd shell runs and injected context are not prompts', async () => {
    const index = new MiniIndex();
    await index.readAll(createPiAdapter([root]));
    const compacted = index.messages.get(`pi:${COMPACTED}`)!;
    expect(compacted.some((m) => m.role === 'system' && m.text.startsWith('## Goal'))).toBe(true);
    const ext = index.sessions.get(`pi:${EXTENSION}`)!;
    expect(ext.userTurns).toBe(1);
    const msgs = index.messages.get(`pi:${EXTENSION}`)!;
    expect(msgs.filter((m) => m.kind === 'tool_call').map((m) => [m.role, m.toolName, m.text])).toEqual([
      ['user', 'bash', '{"command":"git status"}'],
      ['user', 'bash', '{"command":"git stash list"}'],
    ]);
    expect(msgs.find((m) => m.role === 'system' && m.text.startsWith('Handoff brief:'))).toBeDefined();
  });

  it('reads only appended bytes; a new branch moves the current path without moving any seq', async () => {
    const adapter = createPiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = fileOf(fx.home, FORK_SOURCE);
    const id = `pi:${FORK_SOURCE}`;
    const before = index.messages.get(id)!.map((m) => [m.seq, m.nativeId]);
    // /tree back to the first prompt's parent, then a different first prompt and its answer.
    const ts = '2026-11-24T18:00:00.000Z';
    const added =
      `${JSON.stringify({ type: 'message', id: 'aaaa0001', parentId: 'cc52195e', timestamp: ts, message: { role: 'user', content: [{ type: 'text', text: 'Start over: list the tests.' }], timestamp: 1 } })}\n` +
      `${JSON.stringify({ type: 'message', id: 'aaaa0002', parentId: 'aaaa0001', timestamp: ts, message: { role: 'assistant', content: [{ type: 'text', text: 'There is one test file.' }, { type: 'toolCall', id: 't1', name: 'ls', arguments: { path: 'test' } }], model: 'mock-sonnet', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.5 } }, stopReason: 'toolUse', timestamp: 2 } })}\n`;
    fs.appendFileSync(file, added);
    const costBefore = index.sessions.get(id)!.usage.costUsd!;
    const batches = await index.readUnit(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    // The appended bytes plus the 4 KiB head check, never the whole file.
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(added) + 4096);
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    const s = index.sessions.get(id)!;
    expect(index.messages.get(id)!.slice(0, before.length).map((m) => [m.seq, m.nativeId])).toEqual(before);
    expect(s).toMatchObject({ firstPrompt: 'Start over: list the tests.', userTurns: 1, toolNames: ['ls'] });
    // Everything written before the branch is now off the current path.
    expect(s.otherBranchSeqs).toEqual([[0, before.length - 1]]);
    expect(s.usage.costUsd).toBeCloseTo(costBefore + 0.5, 12);
  });

  it('a file rewritten in place (a format migration) is re-read from the start with a diagnostic, nothing lost', async () => {
    const adapter = createPiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = fileOf(fx.home, BRANCHED);
    const id = `pi:${BRANCHED}`;
    const count = index.messages.get(id)!.length;
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"version":3', '"version":4'));
    const batches = await index.readUnit(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches[0]!.resetSessions).toEqual([id]);
    expect(index.messages.get(id)!.length).toBe(count);
    expect(index.sessions.get(id)).toMatchObject({ userTurns: 2, title: 'Greeting app review' });
    expect(index.diagnostics).toEqual([expect.objectContaining({ file, message: expect.stringMatching(/replaced or truncated/) })]);
  });

  it('a huge line (skipped with a diagnostic) does not cut the current path', async () => {
    const tmp = makeTempDir('baton-pi-huge-');
    try {
      const id = '01a20eb0-0000-7000-8000-000000000001';
      const file = path.join(tmp.dir, `2026-11-25T00-00-00-000Z_${id}.jsonl`);
      const entry = (e: Record<string, unknown>) => `${JSON.stringify({ timestamp: '2026-11-25T00:00:01.000Z', ...e })}\n`;
      const user = (eid: string, parentId: string | null, text: string) => entry({ type: 'message', id: eid, parentId, message: { role: 'user', content: [{ type: 'text', text }] } });
      fs.writeFileSync(file, `{"type":"session","version":3,"id":"${id}","timestamp":"2026-11-25T00:00:00.000Z","cwd":"/w"}\n`);
      fs.appendFileSync(file, user('aaaa0001', null, 'First prompt.'));
      fs.appendFileSync(file, entry({ type: 'message', id: 'aaaa0002', parentId: 'aaaa0001', message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(17 * 1024 * 1024) }] } }));
      fs.appendFileSync(file, user('aaaa0003', 'aaaa0002', 'Second prompt.'));
      const index = new MiniIndex();
      await index.readAll(createPiAdapter([tmp.dir]));
      expect(index.diagnostics).toEqual([{ file, line: 3, offset: expect.any(Number), kind: 'line_too_long', message: expect.stringMatching(/longer than/) }]);
      expect(index.sessions.get(`pi:${id}`)).toMatchObject({ firstPrompt: 'First prompt.', userTurns: 2, cwd: '/w', otherBranchSeqs: [] });
    } finally {
      tmp.cleanup();
    }
  });

  it('honours a flat --session-dir folder and the agent folder given as the root', async () => {
    const tmp = makeTempDir('baton-pi-');
    try {
      const flat = path.join(tmp.dir, 'flat');
      fs.mkdirSync(flat);
      fs.copyFileSync(fileOf(fx.home, BRANCHED), path.join(flat, path.basename(fileOf(fx.home, BRANCHED))));
      const index = new MiniIndex();
      await index.readAll(createPiAdapter([flat]));
      expect([...index.sessions.keys()]).toEqual([`pi:${BRANCHED}`]);
      const viaAgentDir = new MiniIndex();
      await viaAgentDir.readAll(createPiAdapter([path.join(fx.home, '.pi', 'agent')]));
      expect(viaAgentDir.sessions.size).toBe(11);
    } finally {
      tmp.cleanup();
    }
    const missing = createPiAdapter([path.join(fx.home, 'nope')]);
    expect(await missing.listUnits()).toEqual([]);
    expect(missing.status().state).toBe('not_found');
  });
});
