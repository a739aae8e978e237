import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { createClaudeAdapter } from './claude-adapter.js';

function line(obj: unknown): string {
  return `${JSON.stringify(obj)}\n`;
}

const DEMO = '-home-ana-projects-demo-app';
const S1 = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';

function userLine(sessionId: string, text: string, extra: Record<string, unknown> = {}): string {
  return line({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: text }, uuid: `u-${Math.random().toString(36).slice(2)}`, timestamp: '2026-11-22T05:00:00.000Z', cwd: '/home/ana/projects/demo-app', sessionId, gitBranch: 'main', ...extra });
}

describe('Claude Code adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let claudeRoot: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    claudeRoot = path.join(fx.home, '.claude');
  });
  afterEach(() => fx.cleanup());

  it('recovers every expected Claude session exactly', async () => {
    const adapter = createClaudeAdapter([claudeRoot, path.join(fx.home, '.config', 'claude')]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const expected = expectedSessions().filter((s) => s.agent === 'claude');
    expect(expected.length).toBeGreaterThan(0);
    expect([...index.sessions.keys()].sort()).toEqual(expected.map((e) => `claude:${e.id}`).sort());
    for (const e of expected) {
      const s = index.sessions.get(`claude:${e.id}`)!;
      expect(s.nativeId).toBe(e.id);
      expect(s.cwd).toBe(e.cwd);
      expect(s.gitBranch).toBe(e.gitBranch);
      expect(s.firstPrompt).toBe(e.firstPrompt);
      expect(s.userTurns).toBe(e.userTurns);
      // expected.json lists tool names sorted; the adapter keeps first-use order.
      expect([...s.toolNames].sort()).toEqual([...e.toolNames].sort());
      expect(s.title).toBe(e.title);
      expect(s.parentId).toBe(e.parentId);
      expect(s.messageCount).toBe(index.messages.get(s.id)!.length);
      expect(s.sourcePath.startsWith(claudeRoot)).toBe(true);
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
      expect(s.usage.output).toBeGreaterThan(0);
    }
    const status = adapter.status();
    expect(status.state).toBe('ok');
    expect(status.sessions).toBe(expected.length);
    expect(status.skippedLines).toBe(0);
    expect(index.diagnostics).toEqual([]);
  });

  it('keeps tool inputs, ids and results faithful', async () => {
    const index = new MiniIndex();
    await index.readAll(createClaudeAdapter([claudeRoot]));
    const msgs = index.messages.get(`claude:${S1}`)!;
    const bash = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'Bash')!;
    expect(JSON.parse(bash.text)).toMatchObject({ command: 'git status' });
    expect(bash.toolCallId).toMatch(/^toolu_/);
    const result = msgs.find((m) => m.kind === 'tool_result' && m.toolCallId === bash.toolCallId)!;
    expect(result.role).toBe('tool');
    expect(result.toolName).toBe('Bash');
    expect(result.isError).toBe(false);
    expect(result.text).toContain('On branch feature/greeting-punctuation');
    const read = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'Read')!;
    expect(JSON.parse(read.text)).toEqual({ file_path: '/home/ana/projects/demo-app/README.md' });
    expect(msgs.map((m) => m.seq)).toEqual(msgs.map((_, i) => i));
  });

  it('counts usage once per API response (message id + request id)', async () => {
    const index = new MiniIndex();
    await index.readAll(createClaudeAdapter([claudeRoot]));
    // Sum of distinct message ids' usage, computed independently from the file.
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    const byId = new Map<string, { input_tokens: number; output_tokens: number }>();
    for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!l) continue;
      const r = JSON.parse(l) as { type: string; message?: { id?: string; usage?: { input_tokens: number; output_tokens: number } } };
      if (r.type === 'assistant' && r.message?.id && r.message.usage) byId.set(r.message.id, r.message.usage);
    }
    const s = index.sessions.get(`claude:${S1}`)!;
    expect(byId.size).toBeGreaterThan(1);
    expect(s.usage.input).toBe([...byId.values()].reduce((a, u) => a + u.input_tokens, 0));
    expect(s.usage.output).toBe([...byId.values()].reduce((a, u) => a + u.output_tokens, 0));
  });

  it('reads only appended bytes with the saved cursor', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    const before = index.sessions.get(`claude:${S1}`)!;
    const added = userLine(S1, 'One more thing: run the tests.');
    fs.appendFileSync(file, added);
    const unit = (await adapter.listUnits()).find((u) => u.path === file)!;
    const batches = await index.read(adapter, unit);
    const msgs = batches.flatMap((b) => b.messages);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ role: 'user', kind: 'text', text: 'One more thing: run the tests.', seq: before.messageCount });
    // Work counted: the appended line plus the 4 KiB head check, nothing else.
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(added) + 4096);
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    const after = index.sessions.get(`claude:${S1}`)!;
    expect(after.userTurns).toBe(before.userTurns + 1);
    expect(after.firstPrompt).toBe(before.firstPrompt);
    expect(after.toolNames).toEqual(before.toolNames);
    expect(after.usage).toEqual(before.usage);
    // Nothing new → nothing read, nothing yielded.
    expect(await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!)).toEqual([]);
  });

  it('a session grows with its file when only non-message lines are appended (last-prompt, file-history-snapshot)', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    const count = index.sessions.get(`claude:${S1}`)!.messageCount;
    // What Claude Code writes at every TUI exit (and sometimes after `claude -p`).
    fs.appendFileSync(file, line({ type: 'last-prompt', lastPrompt: 'run the tests', sessionId: S1 }));
    fs.appendFileSync(file, line({ type: 'file-history-snapshot', messageId: 'm-1', snapshot: { messageId: 'm-1', trackedFileBackups: {}, timestamp: '2026-11-22T05:00:00.000Z' }, isSnapshotUpdate: false }));
    const unit = (await adapter.listUnits()).find((u) => u.path === file)!;
    const batches = await index.read(adapter, unit);
    expect(batches.flatMap((b) => b.messages)).toEqual([]);
    const after = index.sessions.get(`claude:${S1}`)!;
    expect(after.bytes).toBe(fs.statSync(file).size);
    expect(after.messageCount).toBe(count);
  });

  it('never parses a partial last line: a line appended in two halves arrives once, whole', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    const added = userLine(S1, 'Split across two writes');
    const cut = Math.floor(added.length / 2);
    fs.appendFileSync(file, added.slice(0, cut));
    const first = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(first.flatMap((b) => b.messages)).toEqual([]);
    // Only a note for the index, which calls a partial line a problem once it stays that way.
    expect(index.diagnostics).toEqual([expect.objectContaining({ file, kind: 'unfinished_line' })]);
    fs.appendFileSync(file, added.slice(cut));
    const second = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    const msgs = second.flatMap((b) => b.messages);
    expect(msgs.map((m) => m.text)).toEqual(['Split across two writes']);
    // The first half was kept in the cursor: only the second half is read again (+ head check).
    expect(second.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(added.slice(cut)) + 4096);
  });

  it('re-reads a file replaced by a shorter one, announcing the reset, without duplicates', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    const tmp = `${file}.new`;
    fs.writeFileSync(tmp, userLine(S1, 'Fresh start') + userLine(S1, 'Second prompt'));
    fs.renameSync(tmp, file); // new inode, much shorter
    const batches = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches[0]!.resetSessions).toContain(`claude:${S1}`);
    expect(index.messages.get(`claude:${S1}`)!.map((m) => m.text)).toEqual(['Fresh start', 'Second prompt']);
    const s = index.sessions.get(`claude:${S1}`)!;
    expect(s).toMatchObject({ userTurns: 2, firstPrompt: 'Fresh start', toolNames: [], messageCount: 2 });
    expect(index.diagnostics.some((d) => d.file === file && /replaced or truncated/.test(d.message))).toBe(true);
  });

  it('detects truncation in place (same inode) too', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = path.join(claudeRoot, 'projects', DEMO, `${S1}.jsonl`);
    fs.truncateSync(file, 0);
    fs.appendFileSync(file, userLine(S1, 'after truncate'));
    const batches = await index.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches[0]!.resetSessions).toContain(`claude:${S1}`);
    expect(index.messages.get(`claude:${S1}`)!.map((m) => m.text)).toEqual(['after truncate']);
  });

  it('reports a file deleted before it is read and reads the rest of the store', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    const units = await adapter.listUnits();
    const victim = units.find((u) => u.path.endsWith(`${S1}.jsonl`))!;
    fs.rmSync(victim.path);
    for (const u of units) await index.read(adapter, u);
    expect(index.diagnostics).toEqual([expect.objectContaining({ file: victim.path, message: expect.stringMatching(/vanished/) })]);
    expect(index.sessions.size).toBe(expectedSessions().filter((s) => s.agent === 'claude').length - 1);
    expect(adapter.status().lastError).toContain(victim.path);
  });

  it('marks the sessions of a file deleted after it was indexed as gone', async () => {
    const adapter = createClaudeAdapter([claudeRoot]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const unit = (await adapter.listUnits()).find((u) => u.path.endsWith(`${S1}.jsonl`))!;
    fs.rmSync(unit.path);
    const batches = await index.read(adapter, unit);
    expect(batches.flatMap((b) => b.goneSessions)).toEqual([`claude:${S1}`]);
  });

  it('leaves every fixture file byte-identical', async () => {
    const before = sha256Tree(fx.home);
    const adapter = createClaudeAdapter([claudeRoot]);
    await new MiniIndex().readAll(adapter);
    expect(sha256Tree(fx.home)).toEqual(before);
  });
});

describe('Claude Code record semantics', () => {
  let fx: FixtureHome;
  let root: string;
  let project: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, 'alt-claude');
    project = path.join(root, 'projects', '-home-ana-my-app-v2');
    fs.mkdirSync(project, { recursive: true });
  });
  afterEach(() => fx.cleanup());

  const MAIN = '11111111-2222-4333-8444-555555555555';
  const base = { isSidechain: false, cwd: '/home/ana/my_app.v2', sessionId: MAIN, gitBranch: 'dev', version: '2.1.300', userType: 'external' };
  const assistant = (uuid: string, msgId: string, content: unknown[], usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 }) =>
    line({ ...base, type: 'assistant', uuid, requestId: 'req_1', timestamp: '2026-01-01T00:00:02.000Z', message: { id: msgId, role: 'assistant', model: 'claude-x', content, usage } });

  it('skips scaffolding, meta and compaction for prompts; links subagents in both layouts', async () => {
    const main = [
      line({ type: 'summary', summary: 'Old summary', leafUuid: 'x' }),
      line({ ...base, type: 'user', uuid: 'm1', isMeta: true, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'Caveat: The messages below were generated by the user while running local commands.' } }),
      line({ ...base, type: 'user', uuid: 'm2', timestamp: '2026-01-01T00:00:00.500Z', message: { role: 'user', content: '<command-name>/model</command-name>\n<command-message>model</command-message>' } }),
      line({ ...base, type: 'user', uuid: 'm3', timestamp: '2026-01-01T00:00:00.600Z', message: { role: 'user', content: '<local-command-stdout>Set model</local-command-stdout>' } }),
      line({ ...base, type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] } }),
      assistant('a1', 'msg_A', [{ type: 'thinking', thinking: 'hmm', signature: 's' }]),
      assistant('a2', 'msg_A', [{ type: 'tool_use', id: 'toolu_1', name: 'Task', input: { prompt: 'investigate' } }]),
      line({ ...base, type: 'user', uuid: 'u2', timestamp: '2026-01-01T00:00:03.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'boom' }], is_error: true }] } }),
      line({ ...base, isSidechain: true, agentId: 'inline1', type: 'user', uuid: 'sc1', timestamp: '2026-01-01T00:00:03.500Z', message: { role: 'user', content: 'inline subagent task' } }),
      line({ ...base, type: 'ai-title', aiTitle: 'AI title', sessionId: MAIN }),
      line({ ...base, type: 'system', subtype: 'compact_boundary', uuid: 'c1', content: 'Conversation compacted', timestamp: '2026-01-01T00:00:04.000Z', compactMetadata: { trigger: 'auto', preTokens: 1 } }),
      line({ ...base, type: 'user', uuid: 'c2', isCompactSummary: true, timestamp: '2026-01-01T00:00:04.100Z', message: { role: 'user', content: 'This session is being continued from a previous conversation…' } }),
      line({ ...base, type: 'user', uuid: 'u3', timestamp: '2026-01-01T00:00:05.000Z', gitBranch: 'HEAD', message: { role: 'user', content: 'And now the docs' } }),
      line({ ...base, type: 'custom-title', customTitle: 'My rename', sessionId: MAIN }),
      line({ ...base, type: 'ai-title', aiTitle: 'Later AI title', sessionId: MAIN }),
    ].join('');
    fs.writeFileSync(path.join(project, `${MAIN}.jsonl`), main);
    const nested = path.join(project, MAIN, 'subagents');
    fs.mkdirSync(nested, { recursive: true });
    fs.writeFileSync(path.join(nested, 'agent-abc1234.jsonl'), line({ ...base, isSidechain: true, agentId: 'abc1234', type: 'user', uuid: 's1', timestamp: '2026-01-01T00:00:02.500Z', message: { role: 'user', content: 'investigate' } }) + line({ ...base, isSidechain: true, agentId: 'abc1234', type: 'assistant', uuid: 's2', timestamp: '2026-01-01T00:00:02.600Z', message: { id: 'msg_S', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'Grep', input: { pattern: 'x' } }], usage: { input_tokens: 1, output_tokens: 1 } } }));
    fs.writeFileSync(path.join(project, 'agent-flat999.jsonl'), line({ ...base, isSidechain: true, agentId: 'flat999', type: 'user', uuid: 'f1', timestamp: '2026-01-01T00:00:02.700Z', message: { role: 'user', content: 'flat layout task' } }));

    const index = new MiniIndex();
    const adapter = createClaudeAdapter([root]);
    await index.readAll(adapter);
    const s = index.sessions.get(`claude:${MAIN}`)!;
    expect(s).toMatchObject({ firstPrompt: 'Fix the flaky test', userTurns: 2, title: 'My rename', cwd: '/home/ana/my_app.v2', gitBranch: null, toolNames: ['Task'], parentId: null });
    expect(s.usage).toEqual({ input: 10, output: 5, cacheRead: 100, cacheWrite: 7, reasoning: 0 }); // two lines, one response
    const msgs = index.messages.get(`claude:${MAIN}`)!;
    const result = msgs.find((m) => m.kind === 'tool_result')!;
    expect(result).toMatchObject({ isError: true, toolName: 'Task', toolCallId: 'toolu_1', text: 'boom' });
    expect(msgs.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['Fix the flaky test', 'And now the docs']);
    expect(msgs.filter((m) => m.role === 'system').length).toBe(5); // caveat, command, stdout, boundary, summary

    expect(index.sessions.get('claude:agent-abc1234')).toMatchObject({ parentId: `claude:${MAIN}`, firstPrompt: 'investigate', userTurns: 1, toolNames: ['Grep'] });
    expect(index.sessions.get('claude:agent-flat999')).toMatchObject({ parentId: `claude:${MAIN}`, firstPrompt: 'flat layout task' });
    expect(index.sessions.get('claude:agent-inline1')).toMatchObject({ parentId: `claude:${MAIN}`, firstPrompt: 'inline subagent task' });
  });

  it('title precedence: custom-title > ai-title > summary > none', async () => {
    const mk = (id: string, lines: string[]) => fs.writeFileSync(path.join(project, `${id}.jsonl`), [userLine(id, 'p'), ...lines].join(''));
    mk('aaaaaaaa-0000-4000-8000-000000000001', [line({ type: 'summary', summary: 'S', leafUuid: 'x' }), line({ type: 'ai-title', aiTitle: 'A' })]);
    mk('aaaaaaaa-0000-4000-8000-000000000002', [line({ type: 'summary', summary: 'S', leafUuid: 'x' })]);
    mk('aaaaaaaa-0000-4000-8000-000000000003', [line({ type: 'custom-title', customTitle: 'C' }), line({ type: 'ai-title', aiTitle: 'A' }), line({ type: 'summary', summary: 'S' })]);
    mk('aaaaaaaa-0000-4000-8000-000000000004', []);
    const index = new MiniIndex();
    await index.readAll(createClaudeAdapter([root]));
    expect(index.sessions.get('claude:aaaaaaaa-0000-4000-8000-000000000001')!.title).toBe('A');
    expect(index.sessions.get('claude:aaaaaaaa-0000-4000-8000-000000000002')!.title).toBe('S');
    expect(index.sessions.get('claude:aaaaaaaa-0000-4000-8000-000000000003')!.title).toBe('C');
    expect(index.sessions.get('claude:aaaaaaaa-0000-4000-8000-000000000004')!.title).toBeNull();
  });

  it('drops history that resume/fork copied into a new session file and links the fork', async () => {
    const original = [userLine(MAIN, 'Original prompt', { uuid: 'o1' }), assistant('o2', 'msg_O', [{ type: 'text', text: 'ok' }])].join('');
    fs.writeFileSync(path.join(project, `${MAIN}.jsonl`), original);
    const FORK = '99999999-2222-4333-8444-555555555555';
    // Old-style resume: the copied lines keep their uuids; newer copies are rewritten to the new id.
    const copiedRewritten = original.replaceAll(MAIN, FORK);
    const forkFile = path.join(project, `${FORK}.jsonl`);
    fs.writeFileSync(forkFile, copiedRewritten + userLine(FORK, 'Continue in the fork'));
    fs.utimesSync(forkFile, new Date(Date.now() + 5000), new Date(Date.now() + 5000)); // newer file
    const index = new MiniIndex();
    await index.readAll(createClaudeAdapter([root]));
    expect(index.sessions.get(`claude:${MAIN}`)).toMatchObject({ userTurns: 1, firstPrompt: 'Original prompt', parentId: null });
    expect(index.sessions.get(`claude:${FORK}`)).toMatchObject({ userTurns: 1, firstPrompt: 'Continue in the fork', parentId: `claude:${MAIN}` });
    expect(index.messages.get(`claude:${FORK}`)!.map((m) => m.text)).toEqual(['Continue in the fork']);

    // Copies that still name the original session are recognised without having seen it first.
    const FORK2 = '77777777-2222-4333-8444-555555555555';
    const root2 = path.join(fx.home, 'claude-2');
    fs.mkdirSync(path.join(root2, 'projects', 'p'), { recursive: true });
    fs.writeFileSync(path.join(root2, 'projects', 'p', `${FORK2}.jsonl`), original + userLine(FORK2, 'Only this counts'));
    const index2 = new MiniIndex();
    await index2.readAll(createClaudeAdapter([root2]));
    expect(index2.sessions.get(`claude:${FORK2}`)).toMatchObject({ userTurns: 1, firstPrompt: 'Only this counts', parentId: `claude:${MAIN}` });
  });

  it('cuts a large transcript into bounded batches whose cursors resume exactly', async () => {
    const file = path.join(project, `${MAIN}.jsonl`);
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(userLine(MAIN, `prompt ${i}`, { uuid: `bulk-${i}` }));
    fs.writeFileSync(file, lines.join(''));
    const adapter = createClaudeAdapter([root]);
    const index = new MiniIndex();
    const batches = await index.read(adapter, (await adapter.listUnits())[0]!);
    expect(batches.length).toBeGreaterThan(2);
    for (const b of batches) expect(b.messages.length).toBeLessThanOrEqual(2000);
    // A first read reads each byte once (the head check rides on the first read).
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(fs.statSync(file).size);
    expect(index.messages.get(`claude:${MAIN}`)!.length).toBe(5000);
    expect(index.sessions.get(`claude:${MAIN}`)!.userTurns).toBe(5000);
    // Resuming from the middle batch's cursor (as after a crash) yields exactly the remainder.
    const mid = new MiniIndex();
    mid.cursors.set(file, batches[0]!.cursor ?? null);
    mid.messages.set(`claude:${MAIN}`, index.messages.get(`claude:${MAIN}`)!.slice(0, batches[0]!.messages.length));
    await mid.read(adapter, (await adapter.listUnits())[0]!);
    expect(mid.messages.get(`claude:${MAIN}`)!.map((m) => m.text)).toEqual(lines.map((_, i) => `prompt ${i}`));
    expect(mid.sessions.get(`claude:${MAIN}`)!.userTurns).toBe(5000);
  });

  it('reports a missing store as not_found', async () => {
    const adapter = createClaudeAdapter([path.join(fx.home, 'nope')]);
    expect(await adapter.listUnits()).toEqual([]);
    expect(adapter.status()).toMatchObject({ state: 'not_found', sessions: 0 });
  });
});
