/**
 * Gemini CLI stores built by hand in the shapes the real CLI writes (reference §6), for what the
 * fixture store does not show: subagents, legacy whole-JSON files and their conversion, the
 * CLI's rewrite leftovers, `$rewindTo`, and hostile input (truncated last line, huge replay line,
 * a file rewritten in place).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Message, Session } from '../../../../shared/model.js';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { JsonValue, ReadBatch, SourceAdapter } from '../types.js';
import { createGeminiAdapter } from './gemini-adapter.js';
import { sha256Hex } from './project-roots.js';

const SID = '1f2e3d4c-1111-4222-8333-444455556666';
const CHILD = '9a8b7c6d-aaaa-4bbb-8ccc-ddddeeeeffff';
const CWD = '/home/bo/projects/ledger-svc';

const line = (obj: unknown) => `${JSON.stringify(obj)}\n`;
const header = (sessionId: string, extra: Record<string, unknown> = {}) =>
  line({ sessionId, projectHash: sha256Hex(CWD), startTime: '2026-11-24T10:00:00.000Z', lastUpdated: '2026-11-24T10:00:00.000Z', kind: 'main', ...extra });
const context = () => line({ $set: { messages: [{ id: 'ctx', timestamp: '2026-11-24T10:00:00.000Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.' }] }] } });
const user = (id: string, text: string) => line({ id, timestamp: '2026-11-24T10:00:01.000Z', type: 'user', content: [{ text }] });
const gemini = (id: string, text: string, extra: Record<string, unknown> = {}) =>
  line({ id, timestamp: '2026-11-24T10:00:02.000Z', type: 'gemini', content: text, thoughts: [], tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 }, model: 'gemini-3.8-flash', ...extra });

class Reader {
  sessions = new Map<string, Session>();
  messages = new Map<string, Message[]>();
  cursors = new Map<string, JsonValue>();
  diagnostics: Omit<Diagnostic, 'at'>[] = [];
  batches: ReadBatch[] = [];

  async readAll(adapter: SourceAdapter): Promise<ReadBatch[]> {
    const out: ReadBatch[] = [];
    for (const unit of await adapter.listUnits()) {
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
    }
    this.batches.push(...out);
    return out;
  }

  texts(id: string, role?: Message['role']): string[] {
    return (this.messages.get(`gemini:${id}`) ?? []).filter((m) => !role || m.role === role).map((m) => m.text);
  }
}

describe('Gemini CLI stores beyond the fixture', () => {
  let tmp: { dir: string; cleanup(): void };
  let gem: string;
  let chats: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-gemini-');
    gem = path.join(tmp.dir, '.gemini');
    chats = path.join(gem, 'tmp', 'ledger-svc', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    fs.writeFileSync(path.join(gem, 'tmp', 'ledger-svc', '.project_root'), CWD);
  });
  afterEach(() => tmp.cleanup());

  it('links a subagent to its parent folder and takes the cwd from .project_root', async () => {
    fs.writeFileSync(path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl'), [
      header(SID), context(), user('u1', 'use a subagent to list the files'),
      gemini('g1', '', { toolCalls: [{ id: 'invoke_agent_1', name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'list files' }, status: 'success', agentId: CHILD, result: [{ functionResponse: { id: 'invoke_agent_1', name: 'invoke_agent', response: { output: 'a.txt' } } }] }] }),
      line({ id: 'r1', timestamp: '2026-11-24T10:00:03.000Z', type: 'user', content: [{ functionResponse: { id: 'invoke_agent_1', name: 'invoke_agent', response: { output: 'a.txt' } } }] }),
    ].join(''));
    fs.mkdirSync(path.join(chats, SID));
    fs.writeFileSync(path.join(chats, SID, `${CHILD}.jsonl`), [
      header(CHILD, { kind: 'subagent', directories: ['/elsewhere/ignored-when-project-root-exists'] }),
      user('c1', 'list files'),
      gemini('c2', '', { toolCalls: [{ id: `${CHILD}#0-0`, name: 'complete_task', args: { result: { response: 'a.txt' } }, status: 'success' }] }),
      line({ $set: { summary: '{"response":"a.txt"}' } }),
    ].join(''));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.sessions.get(`gemini:${CHILD}`)).toMatchObject({ parentId: `gemini:${SID}`, cwd: CWD, firstPrompt: 'list files', userTurns: 1, toolNames: ['complete_task'], title: '{"response":"a.txt"}' });
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ parentId: null, cwd: CWD, userTurns: 1, toolNames: ['invoke_agent'], title: null });
    expect(r.messages.get(`gemini:${SID}`)!.filter((m) => m.kind === 'tool_result')).toHaveLength(1);
  });

  it('a SessionStart hook’s context prepended to a `-p` prompt is context; the rest is the prompt', async () => {
    fs.writeFileSync(path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl'), [
      header(SID), context(),
      user('u1', '<hook_context># Baton handoff 42\n\nThe brief.\n</hook_context>\n\nContinue please.'),
      gemini('g1', 'On it.'),
      user('u2', '<hook_context>only context</hook_context>'),
    ].join(''));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ firstPrompt: 'Continue please.', userTurns: 1 });
    expect(r.texts(SID, 'user')).toEqual(['Continue please.']);
    expect(r.texts(SID, 'system')).toEqual(expect.arrayContaining(['<hook_context># Baton handoff 42\n\nThe brief.\n</hook_context>', '<hook_context>only context</hook_context>']));
  });

  it('marks a failed tool call’s result as an error, whichever copy of it arrives first', async () => {
    const call = { id: 'read_file_1', name: 'read_file', args: { file_path: '.env' }, status: 'error', result: [{ functionResponse: { id: 'read_file_1', name: 'read_file', response: { error: 'Path not in workspace' } } }] };
    fs.writeFileSync(path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl'), [
      header(SID), user('u1', 'read .env'),
      gemini('g1', 'Reading it.'),
      gemini('g1', 'Reading it.', { toolCalls: [call] }),
      line({ id: 'r1', timestamp: '2026-11-24T10:00:03.000Z', type: 'user', content: [{ functionResponse: { id: 'read_file_1', name: 'read_file', response: { error: 'Path not in workspace' } } }] }),
    ].join(''));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    const msgs = r.messages.get(`gemini:${SID}`)!;
    expect(msgs.map((m) => `${m.role}/${m.kind}`)).toEqual(['user/text', 'assistant/text', 'assistant/tool_call', 'tool/tool_result']);
    expect(msgs[3]).toMatchObject({ isError: true, text: 'Path not in workspace', toolCallId: 'read_file_1', toolName: 'read_file' });
    expect(r.sessions.get(`gemini:${SID}`)!.usage.input).toBe(100); // the record written twice counts once
  });

  it('finds the cwd through projects.json (slug, or a legacy hash folder) when .project_root is missing', async () => {
    fs.rmSync(path.join(gem, 'tmp', 'ledger-svc', '.project_root'));
    fs.writeFileSync(path.join(gem, 'projects.json'), JSON.stringify({ projects: { [CWD]: 'ledger-svc', '/home/bo/old': 'old' } }));
    const hashDir = path.join(gem, 'tmp', sha256Hex('/home/bo/old'), 'chats');
    fs.mkdirSync(hashDir, { recursive: true });
    const OLD = '22222222-1111-4222-8333-444455556666';
    fs.writeFileSync(path.join(hashDir, 'session-2026-01-01T00-00-22222222.jsonl'), header(OLD, { projectHash: sha256Hex('/home/bo/old') }) + user('o1', 'old prompt'));
    fs.writeFileSync(path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl'), header(SID) + user('u1', 'hello'));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.sessions.get(`gemini:${SID}`)!.cwd).toBe(CWD);
    expect(r.sessions.get(`gemini:${OLD}`)!.cwd).toBe('/home/bo/old');
  });

  it('reads a legacy whole-JSON session, and only its .jsonl once the CLI converted it', async () => {
    const legacy = path.join(chats, 'session-2025-06-01T10-00-1f2e3d4c.json');
    const messages = [
      { id: 'l1', timestamp: '2025-06-01T10:00:01.000Z', type: 'user', content: 'legacy prompt' },
      { id: 'l2', timestamp: '2025-06-01T10:00:02.000Z', type: 'gemini', content: 'legacy answer', tokens: { input: 5, output: 3, cached: 0, total: 8 }, model: 'gemini-2.5-pro' },
    ];
    fs.writeFileSync(legacy, JSON.stringify({ sessionId: SID, projectHash: sha256Hex(CWD), startTime: '2025-06-01T10:00:00.000Z', lastUpdated: '2025-06-01T10:00:02.000Z', messages, summary: 'Legacy title' }, null, 2));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ firstPrompt: 'legacy prompt', userTurns: 1, title: 'Legacy title', cwd: CWD, model: 'gemini-2.5-pro', sourcePath: legacy });
    expect(r.texts(SID)).toEqual(['legacy prompt', 'legacy answer']);
    // Unchanged: nothing read again.
    expect(await r.readAll(adapter)).toEqual([]);
    // Resuming converts it: header + the same records in a .jsonl beside it, then the new turn.
    fs.writeFileSync(`${legacy}l`, header(SID, { summary: 'Legacy title' }) + messages.map(line).join('') + line({ $set: { sessionId: SID } }) + user('l3', 'after conversion'));
    expect((await adapter.listUnits()).map((u) => path.basename(u.path))).toEqual(['session-2025-06-01T10-00-1f2e3d4c.jsonl']);
    await r.readAll(adapter);
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ userTurns: 2, title: 'Legacy title', sourcePath: `${legacy}l` });
    expect(r.texts(SID)).toEqual(['legacy prompt', 'legacy answer', 'after conversion']);
  });

  it('a legacy file caught mid-rewrite is reported and what was indexed stays', async () => {
    const legacy = path.join(chats, 'session-2025-06-01T10-00-1f2e3d4c.json');
    fs.writeFileSync(legacy, JSON.stringify({ sessionId: SID, projectHash: 'x', messages: [{ id: 'l1', type: 'user', content: 'kept' }] }));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    fs.writeFileSync(legacy, '{"sessionId":"1f2e3d4c-1111-4222-8333-444455556666","messages":[{"id":"l1"');
    await r.readAll(adapter);
    expect(r.diagnostics).toEqual([{ file: legacy, message: expect.stringMatching(/not valid JSON.*kept what was indexed/) }]);
    expect(r.texts(SID)).toEqual(['kept']);
  });

  it('never reads the CLI’s .tmp-<pid> and .unreadable-<ms> leftovers, nor other files in chats/', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    fs.writeFileSync(file, header(SID) + user('u1', 'real'));
    fs.writeFileSync(`${file}.tmp-4242`, header(SID) + user('u1', 'real') + user('u2', 'half-written copy'));
    fs.writeFileSync(`${file}.unreadable-1795542509179`, header(SID) + user('x', 'old backup'));
    fs.writeFileSync(path.join(chats, 'notes.jsonl'), user('n', 'not a session'));
    const adapter = createGeminiAdapter([gem]);
    expect((await adapter.listUnits()).map((u) => u.path)).toEqual([file]);
  });

  it('$rewindTo drops the rewound prompts from the count; their text stays searchable', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    fs.writeFileSync(file, header(SID) + user('u1', 'first') + gemini('g1', 'ok') + user('u2', 'second, abandoned') + gemini('g2', 'ok') + line({ $rewindTo: 'u2' }) + user('u3', 'second, again'));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ userTurns: 2, firstPrompt: 'first' });
    expect(r.texts(SID, 'user')).toEqual(['first', 'second, abandoned', 'second, again']);
  });

  it('a truncated last line is not parsed (only noted for the index) until it is completed', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    const last = user('u2', 'finished later');
    fs.writeFileSync(file, header(SID) + user('u1', 'before') + last.slice(0, 30));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    // Only a note for the index, which calls a partial line a problem once it stays that way.
    expect(r.diagnostics).toEqual([expect.objectContaining({ file, kind: 'unfinished_line' })]);
    expect(r.texts(SID)).toEqual(['before']);
    fs.appendFileSync(file, last.slice(30));
    const batches = await r.readAll(adapter);
    expect(r.diagnostics).toEqual([expect.objectContaining({ file, kind: 'unfinished_line' })]);
    expect(r.texts(SID)).toEqual(['before', 'finished later']);
    expect(r.sessions.get(`gemini:${SID}`)!.userTurns).toBe(2);
    // The first part was kept in the cursor: only the rest is read again (+ the head check, here
    // the whole small file).
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(last.slice(30)) + Math.min(4096, fs.statSync(file).size));
  });

  it('a replay line too long to hold is skipped with a diagnostic; the turns after it are read', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    const huge = `{"$set":{"messages":[{"id":"x","type":"user","content":[{"text":"${'r'.repeat(17 * 1024 * 1024)}"}]}]}}\n`;
    fs.writeFileSync(file, header(SID) + user('u1', 'before') + huge + user('u2', 'after'));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    const offset = Buffer.byteLength(header(SID) + user('u1', 'before'));
    expect(r.diagnostics).toEqual([{ file, line: 3, offset, kind: 'line_too_long', message: expect.stringMatching(/longer than/) }]);
    expect(r.texts(SID)).toEqual(['before', 'after']);
    expect(r.sessions.get(`gemini:${SID}`)!.userTurns).toBe(2);
  });

  it('a big replay line within limits is skipped byte-wise, never as new turns', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    const history = Array.from({ length: 2000 }, (_, i) => ({ id: `h${i}`, timestamp: '2026-11-24T10:00:00.000Z', type: 'user', content: [{ text: `replayed prompt ${i} {"}` }] }));
    fs.writeFileSync(file, header(SID) + user('u1', 'before') + line({ $set: { messages: history, lastUpdated: '2026-11-24T11:00:00.000Z' } }) + user('u2', 'after'));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.diagnostics).toEqual([]);
    expect(r.texts(SID)).toEqual(['before', 'after']);
    expect(r.sessions.get(`gemini:${SID}`)!.updatedAt).toBe('2026-11-24T11:00:00.000Z');
  });

  it('a file the CLI rewrote (temp file + rename) is read again with a clear diagnostic, without duplicates', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    fs.writeFileSync(file, header(SID) + user('u1', 'one') + gemini('g1', 'ok') + user('u2', 'two'));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    // rewriteConversationFile: header, the records one per line, through <file>.tmp-<pid> + rename;
    // the old file kept as <file>.unreadable-<ms>.
    fs.copyFileSync(file, `${file}.unreadable-1`);
    fs.writeFileSync(`${file}.tmp-77`, header(SID) + user('u1', 'one') + gemini('g1', 'ok') + user('u2', 'two') + user('u3', 'three'));
    fs.renameSync(`${file}.tmp-77`, file);
    const batches = await r.readAll(adapter);
    expect(batches[0]!.resetSessions).toEqual([`gemini:${SID}`]);
    expect(r.diagnostics).toEqual([{ file, kind: 'reread', message: expect.stringMatching(/replaced or truncated; re-reading/) }]);
    expect(r.texts(SID)).toEqual(['one', 'ok', 'two', 'three']);
    expect(r.sessions.get(`gemini:${SID}`)!.userTurns).toBe(3);
  });

  it('malformed lines become diagnostics with file and line; the rest is read', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    fs.writeFileSync(file, header(SID) + user('u1', 'before') + '{"id":"bad","type":"user",\n' + `${'\0'.repeat(40)}\n` + user('u2', 'after'));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    await r.readAll(adapter);
    expect(r.diagnostics.map((d) => [d.line, d.file])).toEqual([[3, file], [4, file]]);
    expect(r.texts(SID)).toEqual(['before', 'after']);
    expect(adapter.status().skippedLines).toBe(2);
  });

  it('a damaged header line is reported and the messages are kept under the file’s name', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    fs.writeFileSync(file, '{"sessionId":"1f2e3d4c-1111-4222-8333-4444555\n' + context() + user('u1', 'still here'));
    const child = path.join(chats, SID, `${CHILD}.jsonl`);
    fs.mkdirSync(path.dirname(child));
    fs.writeFileSync(child, '\0\0\0\n' + user('c1', 'child prompt'));
    const r = new Reader();
    await r.readAll(createGeminiAdapter([gem]));
    expect(r.diagnostics.map((d) => [d.file, d.line]).sort()).toEqual([[child, 1], [file, 1]].sort());
    expect(r.sessions.get('gemini:session-2026-11-24T10-00-1f2e3d4c')).toMatchObject({ firstPrompt: 'still here', cwd: CWD });
    expect(r.sessions.get(`gemini:${CHILD}`)).toMatchObject({ firstPrompt: 'child prompt', parentId: `gemini:${SID}` });
  });

  it('cuts a large transcript into bounded batches, reading each byte once; a middle cursor resumes exactly', async () => {
    const file = path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl');
    const lines = [header(SID), context()];
    for (let i = 0; i < 3000; i++) lines.push(user(`u${i}`, `prompt ${i}`), gemini(`g${i}`, `answer ${i}`), line({ $set: { lastUpdated: '2026-11-24T10:00:02.000Z' } }));
    fs.writeFileSync(file, lines.join(''));
    const adapter = createGeminiAdapter([gem]);
    const r = new Reader();
    const batches = await r.readAll(adapter);
    expect(batches.length).toBeGreaterThan(2);
    for (const b of batches) expect(b.messages.length).toBeLessThanOrEqual(2000);
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(fs.statSync(file).size);
    expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ userTurns: 3000, messageCount: 6000 });
    expect(r.sessions.get(`gemini:${SID}`)!.usage.output).toBe(30_000);
    // Resuming from the first batch's cursor (as after a crash) yields exactly the remainder.
    const mid = new Reader();
    mid.cursors.set(file, batches[0]!.cursor!);
    mid.messages.set(`gemini:${SID}`, r.messages.get(`gemini:${SID}`)!.slice(0, batches[0]!.messages.length));
    await mid.readAll(adapter);
    expect(mid.texts(SID)).toEqual(r.texts(SID));
    expect(mid.sessions.get(`gemini:${SID}`)).toMatchObject({ userTurns: 3000, usage: r.sessions.get(`gemini:${SID}`)!.usage });
  });

  it('watches tmp/ of a store that has one, the whole root of a fresh one', () => {
    const fresh = path.join(tmp.dir, 'fresh', '.gemini');
    expect(createGeminiAdapter([gem, path.join(gem, 'tmp', 'ledger-svc'), fresh]).watchRoots?.()).toEqual([
      path.join(gem, 'tmp'),
      path.join(gem, 'tmp', 'ledger-svc'),
      fresh,
    ]);
  });

  it('accepts a root that is the tmp folder, one project folder or its chats folder, and reports a missing one', async () => {
    fs.writeFileSync(path.join(chats, 'session-2026-11-24T10-00-1f2e3d4c.jsonl'), header(SID) + user('u1', 'hello'));
    for (const root of [path.join(gem, 'tmp'), path.join(gem, 'tmp', 'ledger-svc'), chats]) {
      const r = new Reader();
      await r.readAll(createGeminiAdapter([root]));
      expect(r.sessions.get(`gemini:${SID}`)).toMatchObject({ cwd: CWD, firstPrompt: 'hello' });
    }
    const missing = createGeminiAdapter([path.join(tmp.dir, 'nope')]);
    expect(await missing.listUnits()).toEqual([]);
    expect(missing.status()).toMatchObject({ state: 'not_found', sessions: 0 });
  });
});
