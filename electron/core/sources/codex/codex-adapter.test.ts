import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { createCodexAdapter } from './codex-adapter.js';

const line = (obj: unknown) => `${JSON.stringify(obj)}\n`;
const DAY = ['sessions', '2026', '11', '22'];
const MULTI = '01a20157-94de-71d1-8e8d-ab66ac63d990';
const multiFile = (home: string) => path.join(home, '.codex', ...DAY, `rollout-2026-11-22T03-40-46-${MULTI}.jsonl`);

describe('Codex adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.codex');
  });
  afterEach(() => fx.cleanup());

  it('recovers every expected Codex session exactly (titles from state_5.sqlite)', async () => {
    const adapter = createCodexAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const expected = expectedSessions().filter((s) => s.agent === 'codex');
    expect(expected.length).toBeGreaterThan(0);
    expect([...index.sessions.keys()].sort()).toEqual(expected.map((e) => `codex:${e.id}`).sort());
    for (const e of expected) {
      const s = index.sessions.get(`codex:${e.id}`)!;
      expect(s.cwd).toBe(e.cwd);
      expect(s.gitBranch).toBe(e.gitBranch);
      expect(s.firstPrompt).toBe(e.firstPrompt);
      expect(s.userTurns).toBe(e.userTurns);
      expect([...s.toolNames].sort()).toEqual([...e.toolNames].sort());
      expect(s.title).toBe(e.title);
      expect(s.parentId).toBe(e.parentId);
      expect(s.model).toBe('gpt-5.5');
      expect(s.usage.output).toBeGreaterThan(0);
      if (e.gitBranch) expect(s.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(index.diagnostics).toEqual([]);
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null });
  });

  it('pairs tool calls with outputs and keeps the inputs', async () => {
    const index = new MiniIndex();
    await index.readAll(createCodexAdapter([root]));
    const msgs = index.messages.get(`codex:${MULTI}`)!;
    const patch = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'apply_patch')!;
    expect(patch.text).toContain('*** Add File: NOTES.md');
    const patchOut = msgs.find((m) => m.kind === 'tool_result' && m.toolCallId === patch.toolCallId)!;
    expect(patchOut).toMatchObject({ role: 'tool', toolName: 'apply_patch', isError: false });
    const exec = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'exec_command')!;
    expect(JSON.parse(exec.text)).toMatchObject({ cmd: 'ls -la' });
    // Usage is the latest cumulative token_count, not a sum.
    const s = index.sessions.get(`codex:${MULTI}`)!;
    expect(s.usage).toMatchObject({ output: 1068, reasoning: 120 });
  });

  it('reads a .jsonl.zst archived rollout identically to the plain file; a plain sibling wins', async () => {
    const plain = multiFile(fx.home);
    const expectedIndex = new MiniIndex();
    const a1 = createCodexAdapter([root]);
    await expectedIndex.read(a1, (await a1.listUnits()).find((u) => u.path === plain)!);

    const archived = path.join(root, 'archived_sessions');
    fs.mkdirSync(archived, { recursive: true });
    const zst = path.join(archived, `${path.basename(plain)}.zst`);
    fs.writeFileSync(zst, zlib.zstdCompressSync(fs.readFileSync(plain)));
    fs.rmSync(plain);
    const a2 = createCodexAdapter([root]);
    const index = new MiniIndex();
    const unit = (await a2.listUnits()).find((u) => u.path === zst)!;
    expect(unit).toBeDefined();
    const batches = await index.read(a2, unit);
    expect(index.sessions.get(`codex:${MULTI}`)).toEqual({ ...expectedIndex.sessions.get(`codex:${MULTI}`)!, sourcePath: zst, bytes: fs.statSync(zst).size });
    expect(index.messages.get(`codex:${MULTI}`)).toEqual(expectedIndex.messages.get(`codex:${MULTI}`));
    expect(batches[0]!.resetSessions).toEqual([`codex:${MULTI}`]);
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(fs.statSync(zst).size);
    // Unchanged archive: nothing read.
    expect(await index.read(a2, unit)).toEqual([]);

    // Codex decompresses an archive when it reopens it: the plain .jsonl is then the one to read.
    fs.copyFileSync(zst, path.join(archived, 'ignored.txt'));
    fs.writeFileSync(path.join(archived, path.basename(plain)), zlib.zstdDecompressSync(fs.readFileSync(zst)));
    const listed = (await a2.listUnits()).map((u) => u.path);
    expect(listed).toContain(path.join(archived, path.basename(plain)));
    expect(listed).not.toContain(zst);
  });

  it('reads only appended bytes and counts a new user turn once', async () => {
    const adapter = createCodexAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const before = index.sessions.get(`codex:${MULTI}`)!;
    const ts = '2026-11-22T04:00:00.000Z';
    const added =
      line({ timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And run the tests' }] } }) +
      line({ timestamp: ts, type: 'event_msg', payload: { type: 'user_message', message: 'And run the tests', images: [] } }) +
      line({ timestamp: ts, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["npm","test"]}', call_id: 'call_t' } }) +
      line({ timestamp: ts, type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_t', output: 'Process exited with code 1\nOutput:\n1 failing' } });
    fs.appendFileSync(multiFile(fx.home), added);
    const batches = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === multiFile(fx.home))!);
    const msgs = batches.flatMap((b) => b.messages);
    expect(msgs.map((m) => `${m.role}/${m.kind}`)).toEqual(['user/text', 'assistant/tool_call', 'tool/tool_result']);
    expect(msgs[2]).toMatchObject({ toolName: 'shell', toolCallId: 'call_t', isError: true });
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(added) + 4096);
    const after = index.sessions.get(`codex:${MULTI}`)!;
    expect(after.userTurns).toBe(before.userTurns + 1);
    expect(after.toolNames).toEqual([...before.toolNames, 'shell']);
    expect(after.title).toBe(before.title);
  });

  it('re-reads a rewritten rollout with resetSessions and no duplicates', async () => {
    const adapter = createCodexAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = multiFile(fx.home);
    const firstLines = fs.readFileSync(file, 'utf8').split('\n').slice(0, 9).join('\n') + '\n';
    fs.writeFileSync(`${file}.tmp`, firstLines);
    fs.renameSync(`${file}.tmp`, file);
    const batches = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches[0]!.resetSessions).toContain(`codex:${MULTI}`);
    expect(index.messages.get(`codex:${MULTI}`)!.map((m) => m.text)).toEqual(['Run `ls -la` and give me a quick overview of the files here.']);
    expect(index.sessions.get(`codex:${MULTI}`)!.userTurns).toBe(1);
  });

  it('leaves every fixture file (sqlite, -wal, -shm included) byte-identical', async () => {
    const before = sha256Tree(fx.home);
    await new MiniIndex().readAll(createCodexAdapter([root]));
    const after = sha256Tree(fx.home);
    expect(after).toEqual(before);
    expect(after.has(path.join(root, 'state_5.sqlite-wal'))).toBe(true);
    expect(after.has(path.join(root, 'state_5.sqlite-shm'))).toBe(true);
  });
});

describe('Codex record semantics', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, 'codex-home');
    fs.mkdirSync(path.join(root, 'sessions'), { recursive: true });
  });
  afterEach(() => fx.cleanup());

  const ID = '019c8a1e-5b7f-7c30-9d2e-0a4b3c2d1e0f';
  const PARENT = '019c8a1e-0000-7c30-9d2e-0a4b3c2d1e0f';

  it('reads the legacy bare format (no payload envelope)', async () => {
    const file = path.join(root, 'sessions', `rollout-2025-08-01T10-00-00-${ID}.jsonl`);
    fs.writeFileSync(
      file,
      line({ id: ID, timestamp: '2025-08-01T10:00:00.000Z', instructions: 'be nice', git: { branch: 'legacy', commit_hash: 'abc' } }) +
        line({ record_type: 'state' }) +
        line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>x</user_instructions>' }] }) +
        line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Old style prompt' }] }) +
        line({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }) +
        line({ type: 'function_call_output', call_id: 'c1', output: JSON.stringify({ output: 'denied', metadata: { exit_code: 2 } }) }) +
        line({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
    );
    const index = new MiniIndex();
    await index.readAll(createCodexAdapter([root]));
    expect(index.sessions.get(`codex:${ID}`)).toMatchObject({ firstPrompt: 'Old style prompt', userTurns: 1, gitBranch: 'legacy', gitCommit: 'abc', toolNames: ['shell'], title: null });
    const result = index.messages.get(`codex:${ID}`)!.find((m) => m.kind === 'tool_result')!;
    expect(result).toMatchObject({ text: 'denied', isError: true, toolName: 'shell' });
  });

  it('first session_meta is canonical; forks link to their parent; names from session_index.jsonl win', async () => {
    const ts = '2026-03-02T10:15:03.221Z';
    const file = path.join(root, 'sessions', `rollout-2026-03-02T10-15-03-${ID}.jsonl`);
    fs.writeFileSync(
      file,
      line({ timestamp: ts, type: 'session_meta', payload: { id: ID, cwd: '/home/ana/proj', forked_from_id: PARENT, git: { branch: 'main', commit_hash: 'c0ffee' } } }) +
        line({ timestamp: ts, type: 'session_meta', payload: { id: PARENT, cwd: '/elsewhere', git: { branch: 'other' } } }) +
        line({ timestamp: ts, type: 'event_msg', payload: { type: 'user_message', message: 'Same words' } }) +
        line({ timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Same words' }] } }) +
        line({ timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Same words' }] } }) +
        line({ timestamp: ts, type: 'event_msg', payload: { type: 'user_message', message: 'Same words' } }) +
        line({ timestamp: ts, type: 'event_msg', payload: { type: 'thread_name_updated', thread_id: ID, thread_name: 'event name' } }) +
        line({ timestamp: ts, type: 'compacted', payload: { message: 'Summary of earlier work' } }) +
        line({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 100, cached_input_tokens: 60, output_tokens: 9, reasoning_output_tokens: 4 } } } }) +
        line({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: null } }),
    );
    const adapter = createCodexAdapter([root]);
    let index = new MiniIndex();
    await index.readAll(adapter);
    const s = index.sessions.get(`codex:${ID}`)!;
    expect(s).toMatchObject({ cwd: '/home/ana/proj', gitBranch: 'main', gitCommit: 'c0ffee', parentId: `codex:${PARENT}`, userTurns: 2, title: 'event name' });
    expect(s.usage).toEqual({ input: 40, output: 9, cacheRead: 60, cacheWrite: 0, reasoning: 4 });
    expect(index.messages.get(`codex:${ID}`)!.filter((m) => m.role === 'user')).toHaveLength(2);

    fs.writeFileSync(path.join(root, 'session_index.jsonl'), line({ id: ID, thread_name: 'first rename', updated_at: ts }) + line({ id: ID, thread_name: 'renamed by user', updated_at: ts }));
    index = new MiniIndex();
    await index.readAll(createCodexAdapter([root]));
    expect(index.sessions.get(`codex:${ID}`)!.title).toBe('renamed by user');
  });

  it('a corrupt .jsonl.zst archive is a diagnostic; the other rollouts are still read', async () => {
    const archived = path.join(root, 'archived_sessions');
    fs.mkdirSync(archived, { recursive: true });
    const bad = path.join(archived, `rollout-2026-01-01T00-00-00-${PARENT}.jsonl.zst`);
    fs.writeFileSync(bad, Buffer.from('not zstd at all'));
    fs.writeFileSync(
      path.join(root, 'sessions', `rollout-2026-01-02T00-00-00-${ID}.jsonl`),
      line({ timestamp: '2026-01-02T00:00:00.000Z', type: 'session_meta', payload: { id: ID, cwd: '/w' } }) +
        line({ timestamp: '2026-01-02T00:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'still read' } }),
    );
    const adapter = createCodexAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    expect(index.diagnostics).toEqual([expect.objectContaining({ file: bad, message: expect.stringMatching(/read failed/) })]);
    expect(index.sessions.get(`codex:${ID}`)).toMatchObject({ firstPrompt: 'still read', userTurns: 1 });
    expect(adapter.status().lastError).toContain(bad);
  });

  it('reports not_found for a missing CODEX_HOME', async () => {
    const adapter = createCodexAdapter([path.join(fx.home, 'missing')]);
    expect(await adapter.listUnits()).toEqual([]);
    expect(adapter.status().state).toBe('not_found');
  });
});
