import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Message, Session } from '../../../../shared/model.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { jsonlFilesBelow, replayBoth } from '../../../../testing/shortcut-replay.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../types.js';
import { createGeminiAdapter } from './gemini-adapter.js';
import { GeminiParser } from './gemini-records.js';
import { ProjectRoots } from './project-roots.js';

/** A tiny stand-in for the index: applies batches the way the real one must (resets first). */
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
        expect(m.seq).toBe(list.length); // seq continues exactly where the stored rows end
        list.push(m);
        this.messages.set(m.sessionId, list);
      }
      for (const id of b.goneSessions) {
        const s = this.sessions.get(id);
        if (s) s.sourceGone = true;
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

  async unit(adapter: SourceAdapter, file: string): Promise<ReadBatch[]> {
    const unit = (await adapter.listUnits()).find((u) => u.path === file);
    if (!unit) throw new Error(`no unit for ${file}`);
    return this.readUnit(adapter, unit);
  }
}

const line = (obj: unknown) => `${JSON.stringify(obj)}\n`;
const bytesRead = (batches: ReadBatch[]) => batches.reduce((a, b) => a + b.bytesRead, 0);

const DEMO_CHATS = ['tmp', 'demo-app', 'chats'];
const RESUMED = '6e235986-c831-45ba-a9f7-faaec6013a42'; // -p, then --resume <id>, then --resume latest
const STUBBED = 'fa2b98ed-6d41-4b24-8a06-2ed47b3fce8c'; // TUI resumed a minute later: a stub file
const COMPRESSED = 'a40ae763-c9ab-47fc-8293-fc565bf461e8';

describe('Gemini CLI adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.gemini');
  });
  afterEach(() => fx.cleanup());

  it('recovers every expected Gemini session exactly', async () => {
    const adapter = createGeminiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const expected = expectedSessions().filter((s) => s.agent === 'gemini');
    expect(expected.length).toBe(8);
    expect([...index.sessions.keys()].sort()).toEqual(expected.map((e) => `gemini:${e.id}`).sort());
    for (const e of expected) {
      const s = index.sessions.get(`gemini:${e.id}`)!;
      expect(s.nativeId).toBe(e.id);
      expect(s.cwd).toBe(e.cwd);
      expect(s.gitBranch).toBe(e.gitBranch);
      expect(s.firstPrompt).toBe(e.firstPrompt);
      expect(s.userTurns).toBe(e.userTurns);
      // expected.json lists tool names sorted; the adapter keeps first-use order.
      expect([...s.toolNames].sort()).toEqual(e.toolNames);
      expect(s.title).toBe(e.title);
      expect(s.parentId).toBe(e.parentId);
      expect(s.model).toBe('gemini-3.8-flash');
      expect(s.messageCount).toBe(index.messages.get(s.id)!.length);
      // The session's file is the one with its records, never the stub.
      expect(e.files[0]).toContain(path.basename(s.sourcePath));
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
      expect(s.usage.output).toBeGreaterThan(0);
    }
    const status = adapter.status();
    expect(status.state).toBe('ok');
    expect(status.sessions).toBe(8);
    expect(status.skippedLines).toBe(0);
    expect(index.diagnostics).toEqual([]);
  });

  it('counts each tool call and each result once, calls before their results', async () => {
    const index = new MiniIndex();
    await index.readAll(createGeminiAdapter([root]));
    const msgs = index.messages.get(`gemini:${RESUMED}`)!;
    const calls = msgs.filter((m) => m.kind === 'tool_call');
    const results = msgs.filter((m) => m.kind === 'tool_result');
    expect(calls.map((m) => m.toolName)).toEqual(['run_shell_command', 'write_file']);
    expect(results.map((m) => m.toolCallId)).toEqual(calls.map((m) => m.toolCallId));
    expect(JSON.parse(calls[0]!.text)).toMatchObject({ command: 'ls -la' });
    for (const call of calls) expect(msgs.indexOf(results.find((r) => r.toolCallId === call.toolCallId)!)).toBeGreaterThan(msgs.indexOf(call));
    expect(results[0]).toMatchObject({ role: 'tool', toolName: 'run_shell_command', isError: false });
    expect(results[0]!.text).toContain('Output: total');
    // The three prompts, once each: the two --resume replays added no turns and no messages.
    expect(msgs.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'Run `ls -la` and give me a quick overview of the files here.',
      'Now create a file called `NOTES.md` summarizing the repository state.',
      'Thanks! Anything else I should know before committing?',
    ]);
    expect(msgs.filter((m) => m.role === 'assistant' && m.kind === 'text').length).toBe(5);
    expect(msgs.map((m) => m.seq)).toEqual(msgs.map((_, i) => i));
  });

  it('counts usage once per gemini record id (written twice when it calls tools)', async () => {
    const index = new MiniIndex();
    await index.readAll(createGeminiAdapter([root]));
    const file = path.join(root, ...DEMO_CHATS, 'session-2026-11-24T17-48-6e235986.jsonl');
    const byId = new Map<string, { input: number; output: number; cached: number; thoughts: number; tool: number }>();
    for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!l) continue;
      const r = JSON.parse(l) as { type?: string; id?: string; tokens?: { input: number; output: number; cached: number; thoughts: number; tool: number } };
      if (r.type === 'gemini' && r.id && r.tokens) byId.set(r.id, r.tokens);
    }
    expect(byId.size).toBe(5);
    const sum = (k: 'input' | 'output' | 'cached' | 'thoughts' | 'tool') => [...byId.values()].reduce((a, t) => a + t[k], 0);
    expect(index.sessions.get(`gemini:${RESUMED}`)!.usage).toEqual({
      input: sum('input') - sum('cached') + sum('tool'),
      output: sum('output'),
      cacheRead: sum('cached'),
      cacheWrite: 0,
      reasoning: sum('thoughts'),
    });
  });

  it('keeps the whole transcript of a /compress session; the snapshot is no prompt', async () => {
    const index = new MiniIndex();
    await index.readAll(createGeminiAdapter([root]));
    const msgs = index.messages.get(`gemini:${COMPRESSED}`)!;
    expect(msgs.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'Run `git status` and tell me what is uncommitted.',
      'Read `package.json` and tell me the version.',
      'What did you do so far? Give me a short recap.',
    ]);
    expect(msgs.some((m) => m.text.includes('<state_snapshot>'))).toBe(false);
    expect(msgs.filter((m) => m.kind === 'tool_call').map((m) => m.toolName)).toEqual(['run_shell_command', 'read_file']);
  });

  it('takes the stub of a later-minute --resume for nothing and the session from its real file', async () => {
    const adapter = createGeminiAdapter([root]);
    const units = await adapter.listUnits();
    const stub = units.find((u) => u.path.endsWith('session-2026-11-24T17-50-fa2b98ed.jsonl'))!;
    const index = new MiniIndex();
    const batches = await index.readUnit(adapter, stub);
    expect(batches.flatMap((b) => b.sessions)).toEqual([]);
    expect(batches.flatMap((b) => b.messages)).toEqual([]);
    await index.readAll(adapter);
    const s = index.sessions.get(`gemini:${STUBBED}`)!;
    expect(path.basename(s.sourcePath)).toBe('session-2026-11-24T17-48-fa2b98ed.jsonl');
    expect(s.userTurns).toBe(3);
    expect(index.messages.get(s.id)!.some((m) => m.role === 'system' && m.text === 'Conversation checkpoint saved with tag: demo-review.')).toBe(true);
  });

  it('reads only appended bytes with the saved cursor', async () => {
    const adapter = createGeminiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(root, ...DEMO_CHATS, 'session-2026-11-24T17-51-bf0b9e4b.jsonl');
    const id = 'gemini:bf0b9e4b-8f94-4deb-8816-5a59690558f6';
    const before = index.sessions.get(id)!;
    const added =
      line({ id: 'u-more', timestamp: '2026-11-24T18:00:00.000Z', type: 'user', content: [{ text: 'One more thing: run the tests.' }] }) +
      line({ $set: { lastUpdated: '2026-11-24T18:00:00.001Z' } });
    fs.appendFileSync(file, added);
    const batches = await index.unit(adapter, file);
    const msgs = batches.flatMap((b) => b.messages);
    expect(msgs).toEqual([expect.objectContaining({ role: 'user', kind: 'text', text: 'One more thing: run the tests.', seq: before.messageCount })]);
    // Work counted: the appended lines plus the 4 KiB head check, nothing else.
    expect(bytesRead(batches)).toBe(Buffer.byteLength(added) + 4096);
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    const after = index.sessions.get(id)!;
    expect(after).toMatchObject({ userTurns: 2, firstPrompt: before.firstPrompt, title: before.title, cwd: before.cwd, updatedAt: '2026-11-24T18:00:00.001Z' });
    expect(after.usage).toEqual(before.usage);
    // Nothing new → nothing read, nothing yielded.
    expect(await index.unit(adapter, file)).toEqual([]);
  });

  it('a --resume replay appended while watching adds no turns and is not parsed', async () => {
    const adapter = createGeminiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(root, ...DEMO_CHATS, 'session-2026-11-24T17-48-6e2e2325.jsonl');
    const id = 'gemini:6e2e2325-4a40-41a2-b26e-51b63db42288';
    const before = index.sessions.get(id)!;
    // What --resume appends: the session id, a replay of the whole history, then the new turn.
    const history = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).map((l) => JSON.parse(l) as unknown);
    const added = [
      line({ $set: { sessionId: before.nativeId } }),
      line({ $set: { messages: history } }),
      line({ id: 'u-resumed', timestamp: '2026-11-24T18:00:00.000Z', type: 'user', content: [{ text: 'Resumed prompt' }] }),
      line({ id: 'g-resumed', timestamp: '2026-11-24T18:00:01.000Z', type: 'gemini', content: 'Sure.', thoughts: [], tokens: { input: 10, output: 2, cached: 4, thoughts: 1, tool: 0, total: 13 }, model: 'gemini-3.8-flash' }),
    ].join('');
    fs.appendFileSync(file, added);
    await index.unit(adapter, file);
    const after = index.sessions.get(id)!;
    expect(after.userTurns).toBe(before.userTurns + 1);
    expect(after.messageCount).toBe(before.messageCount + 2);
    expect(after.usage.output).toBe(before.usage.output + 2);
    expect(index.messages.get(id)!.slice(-2).map((m) => m.text)).toEqual(['Resumed prompt', 'Sure.']);
  });

  it('marks the session of a file Gemini deleted (retention) as gone and keeps it', async () => {
    const adapter = createGeminiAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const unit = (await adapter.listUnits()).find((u) => u.path.endsWith('session-2026-11-24T17-48-2317500b.jsonl'))!;
    fs.rmSync(unit.path);
    const batches = await index.readUnit(adapter, unit);
    expect(batches.flatMap((b) => b.goneSessions)).toEqual(['gemini:2317500b-eb4f-4199-9a89-df8a7205af94']);
    expect(index.sessions.get('gemini:2317500b-eb4f-4199-9a89-df8a7205af94')).toMatchObject({ sourceGone: true, userTurns: 1 });
    expect(index.messages.get('gemini:2317500b-eb4f-4199-9a89-df8a7205af94')!.length).toBeGreaterThan(0);
  });

  it('the replay shortcut leaves every session exactly as a full parse does', () => {
    let standIns = 0;
    for (const file of jsonlFilesBelow(path.join(root, 'tmp'))) {
      const { full, fast } = replayBoth(() => new GeminiParser(new ProjectRoots()), 'gemini', file);
      expect(fast.sessions).toEqual(full.sessions);
      expect(fast.messages).toEqual(full.messages);
      expect(fast.state).toEqual(full.state);
      standIns += fast.standIns;
    }
    expect(standIns).toBe(15); // every $set.messages line of the store
  });
});
