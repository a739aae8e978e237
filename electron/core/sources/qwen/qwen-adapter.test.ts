import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { createQwenAdapter } from './qwen-adapter.js';

const DEMO = '-home-ana-projects-demo-app';
const S1 = 'f8658473-d732-49eb-937b-ff648ae2c1ff';
const COMPRESSED = '455a841f-032d-4125-8016-2442ee0e8d52';

const line = (obj: unknown) => `${JSON.stringify(obj)}\n`;
const base = (sessionId: string, over: Record<string, unknown> = {}) => ({
  uuid: `u-${Math.random().toString(36).slice(2)}`,
  parentUuid: null,
  sessionId,
  timestamp: '2026-11-24T19:00:00.000Z',
  cwd: '/home/ana/projects/demo-app',
  version: '0.24.4',
  gitBranch: 'main',
  ...over,
});
const prompt = (sessionId: string, text: string, over: Record<string, unknown> = {}) =>
  line({ ...base(sessionId), type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text }] }, ...over });

describe('Qwen Code adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.qwen');
  });
  afterEach(() => fx.cleanup());

  it('recovers every expected Qwen session exactly', async () => {
    const adapter = createQwenAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const expected = expectRecovered('qwen', store.sessions);
    expect(expected.length).toBe(8);
    for (const s of store.sessions.values()) {
      expect(s.model).toBe('mock-coder');
      expect(s.messageCount).toBe(store.messages.get(s.id)!.length);
      expect(s.sourcePath.startsWith(path.join(root, 'projects'))).toBe(true);
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
    }
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: 8, skippedLines: 0 });
    expect(store.diagnostics).toEqual([]);
  });

  it('keeps tool calls, results and thoughts faithful', async () => {
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([root]));
    const msgs = store.messages.get(`qwen:${S1}`)!;
    const shell = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'run_shell_command')!;
    expect(JSON.parse(shell.text)).toMatchObject({ command: 'git status' });
    expect(shell.toolCallId).toMatch(/^call_/);
    const result = msgs.find((m) => m.kind === 'tool_result' && m.toolCallId === shell.toolCallId)!;
    expect(result).toMatchObject({ role: 'tool', toolName: 'run_shell_command', isError: false });
    expect(result.text).toContain('On branch feature/greeting-punctuation');
    expect(msgs.some((m) => m.role === 'assistant' && m.kind === 'thinking')).toBe(true);
    expect(msgs.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([expectedSessions().find((e) => e.id === S1)!.firstPrompt]);
    // Telemetry and snapshots are not transcript.
    expect(msgs.filter((m) => m.role === 'system')).toEqual([]);
  });

  it('sums usageMetadata of every assistant line (input without the cached part)', async () => {
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([root]));
    for (const id of [S1, COMPRESSED]) {
      const file = path.join(root, 'projects', DEMO, 'chats', `${id}.jsonl`);
      const sum = { prompt: 0, candidates: 0, thoughts: 0, cached: 0 };
      for (const l of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
        const r = JSON.parse(l) as { type: string; usageMetadata?: Record<string, number> };
        if (r.type !== 'assistant' || !r.usageMetadata) continue;
        sum.prompt += r.usageMetadata.promptTokenCount!;
        sum.candidates += r.usageMetadata.candidatesTokenCount!;
        sum.thoughts += r.usageMetadata.thoughtsTokenCount!;
        sum.cached += r.usageMetadata.cachedContentTokenCount!;
      }
      expect(sum.prompt).toBeGreaterThan(0);
      expect(store.sessions.get(`qwen:${id}`)!.usage).toEqual({ input: sum.prompt - sum.cached, output: sum.candidates, cacheRead: sum.cached, cacheWrite: 0, reasoning: sum.thoughts });
    }
  });

  it('keeps the whole transcript across /compress: the summary is a system message, not a turn', async () => {
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([root]));
    const s = store.sessions.get(`qwen:${COMPRESSED}`)!;
    expect(s.userTurns).toBe(3);
    const msgs = store.messages.get(s.id)!;
    const system = msgs.filter((m) => m.role === 'system').map((m) => m.text);
    expect(system[0]).toMatch(/^<state_snapshot>/);
    expect(system[1]).toBe('/compress');
    // Messages from before the compression are all still there, in order.
    const users = msgs.filter((m) => m.role === 'user').map((m) => m.text);
    expect(users).toEqual(['Run `git status` and tell me what is uncommitted.', 'Read `package.json` and tell me the version.', 'What did you do so far? Give me a short recap.']);
    expect(msgs.findIndex((m) => m.text.startsWith('<state_snapshot>'))).toBeGreaterThan(msgs.findIndex((m) => m.text === users[1]));
  });

  it('reads only appended bytes with the saved cursor', async () => {
    const adapter = createQwenAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const file = path.join(root, 'projects', DEMO, 'chats', `${S1}.jsonl`);
    const before = store.sessions.get(`qwen:${S1}`)!;
    const added = prompt(S1, 'One more thing: run the tests.', { timestamp: '2026-11-24T20:00:00.000Z' });
    fs.appendFileSync(file, added);
    const batches = await store.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches.flatMap((b) => b.messages)).toEqual([expect.objectContaining({ role: 'user', text: 'One more thing: run the tests.', seq: before.messageCount })]);
    // Work counted: the appended line plus the 4 KiB head check, nothing else.
    expect(batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(Buffer.byteLength(added) + 4096);
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    const after = store.sessions.get(`qwen:${S1}`)!;
    expect(after).toMatchObject({ userTurns: before.userTurns + 1, firstPrompt: before.firstPrompt, toolNames: before.toolNames, usage: before.usage, updatedAt: '2026-11-24T20:00:00.000Z' });
    // Nothing new → nothing read, nothing yielded.
    expect(await store.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!)).toEqual([]);
  });

  it('re-reads a file rewritten in place, announcing the reset, without duplicates', async () => {
    const adapter = createQwenAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const file = path.join(root, 'projects', DEMO, 'chats', `${S1}.jsonl`);
    fs.writeFileSync(`${file}.new`, prompt(S1, 'Fresh start') + prompt(S1, 'Second prompt'));
    fs.renameSync(`${file}.new`, file);
    const batches = await store.read(adapter, (await adapter.listUnits()).find((u) => u.path === file)!);
    expect(batches[0]!.resetSessions).toContain(`qwen:${S1}`);
    expect(store.messages.get(`qwen:${S1}`)!.map((m) => m.text)).toEqual(['Fresh start', 'Second prompt']);
    expect(store.sessions.get(`qwen:${S1}`)).toMatchObject({ userTurns: 2, firstPrompt: 'Fresh start', toolNames: [], messageCount: 2 });
    expect(store.diagnostics).toEqual([expect.objectContaining({ file, message: expect.stringMatching(/replaced or truncated/) })]);
  });

  it('marks the sessions of a file deleted after it was indexed as gone', async () => {
    const adapter = createQwenAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const unit = (await adapter.listUnits()).find((u) => u.path.endsWith(`${S1}.jsonl`))!;
    fs.rmSync(unit.path);
    const batches = await store.read(adapter, unit);
    expect(batches.flatMap((b) => b.goneSessions)).toEqual([`qwen:${S1}`]);
  });

  it('leaves every fixture file byte-identical and skips side files', async () => {
    const before = sha256Tree(fx.home);
    const adapter = createQwenAdapter([root]);
    const units = await adapter.listUnits();
    expect(units.every((u) => u.path.endsWith('.jsonl') && u.path.includes(`${path.sep}chats${path.sep}`))).toBe(true);
    await new MiniIndex().readAll(adapter);
    expect(sha256Tree(fx.home)).toEqual(before);
  });

  it('reports a missing store as not_found', async () => {
    const adapter = createQwenAdapter([path.join(fx.home, 'nope')]);
    expect(await adapter.listUnits()).toEqual([]);
    expect(adapter.status()).toMatchObject({ state: 'not_found', sessions: 0 });
  });
});

describe('Qwen Code record semantics', () => {
  let fx: FixtureHome;
  let project: string;
  const MAIN = '11111111-2222-4333-8444-555555555555';
  beforeEach(() => {
    fx = makeFixtureHome();
    project = path.join(fx.home, 'alt-qwen', 'projects', '-home-ana-my-app-v2');
    fs.mkdirSync(path.join(project, 'chats'), { recursive: true });
  });
  afterEach(() => fx.cleanup());

  it('tells typed prompts from notifications, hooks and cron; titles; subagents linked to their parent', async () => {
    const sys = (subtype: string, systemPayload: unknown) => line({ ...base(MAIN), type: 'system', provenance: 'system', subtype, systemPayload });
    const main = [
      prompt(MAIN, 'expanded @README.md content…', { systemPayload: { displayText: 'Explain @README.md', hookContext: 'x' } }),
      line({ ...base(MAIN), type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text: 'Second prompt' }, { text: '<qwen:user-prompt-submit-context>\nbrief\n</qwen:user-prompt-submit-context>' }] } }),
      line({
        ...base(MAIN),
        type: 'assistant',
        provenance: 'assistant_output',
        model: 'qwen3-coder',
        message: { role: 'model', parts: [{ text: 'plan', thought: true }, { functionCall: { id: 'call_1', name: 'agent', args: { prompt: 'investigate' } } }] },
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, thoughtsTokenCount: 4, cachedContentTokenCount: 60, totalTokenCount: 110 },
      }),
      line({ ...base(MAIN), type: 'tool_result', provenance: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'agent', response: { error: 'boom' } } }] }, toolCallResult: { callId: 'call_1', status: 'error' } }),
      line({ ...base(MAIN), type: 'user', provenance: 'system', subtype: 'notification', message: { role: 'user', parts: [{ text: '<task-notification>done</task-notification>' }] } }),
      line({ ...base(MAIN), type: 'user', provenance: 'system', subtype: 'cron', message: { role: 'user', parts: [{ text: 'nightly check' }] } }),
      line({ ...base(MAIN), type: 'user', provenance: 'real_user', subtype: 'mid_turn_user_message', message: { role: 'user', parts: [{ text: 'also the docs' }] }, systemPayload: { displayText: 'also the docs' } }),
      sys('custom_title', { customTitle: 'Manual name' }),
      sys('custom_title', { customTitle: 'Generated later', titleSource: 'auto' }),
      line({ ...base(MAIN, { gitBranch: undefined }), type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text: 'after leaving the repo' }] } }),
    ].join('');
    fs.writeFileSync(path.join(project, 'chats', `${MAIN}.jsonl`), main);
    fs.writeFileSync(path.join(project, 'chats', `${MAIN}.runtime.json`), '{"pid":1}');
    const sub = path.join(project, 'subagents', MAIN);
    fs.mkdirSync(sub, { recursive: true });
    const child = 'agent-general-purpose-call_1';
    const childBase = { ...base(MAIN), isSidechain: true, agentId: 'general-purpose-call_1', agentName: 'general-purpose' };
    fs.writeFileSync(
      path.join(sub, `${child}.jsonl`),
      line({ ...childBase, type: 'user', message: { role: 'user', parts: [{ text: 'investigate' }] } }) +
        line({ ...childBase, type: 'assistant', message: { role: 'model', parts: [{ functionCall: { id: 'c2', name: 'grep_search', args: { pattern: 'x' } } }] } }),
    );
    fs.writeFileSync(path.join(sub, `${child}.meta.json`), '{}');
    fs.writeFileSync(path.join(sub, `${child}.jsonl.stream`), '{"v":1}\n');

    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([path.join(fx.home, 'alt-qwen')]));
    expect(store.diagnostics).toEqual([]);
    const s = store.sessions.get(`qwen:${MAIN}`)!;
    expect(s).toMatchObject({ firstPrompt: 'Explain @README.md', userTurns: 4, title: 'Manual name', model: 'qwen3-coder', toolNames: ['agent'], parentId: null, gitBranch: null });
    expect(s.usage).toEqual({ input: 40, output: 10, cacheRead: 60, cacheWrite: 0, reasoning: 4 });
    const msgs = store.messages.get(s.id)!;
    expect(msgs.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['Explain @README.md', 'Second prompt', 'also the docs', 'after leaving the repo']);
    expect(msgs.filter((m) => m.role === 'system').map((m) => m.text)).toEqual(['<task-notification>done</task-notification>', 'nightly check']);
    expect(msgs.find((m) => m.kind === 'tool_result')).toMatchObject({ toolName: 'agent', toolCallId: 'call_1', isError: true, text: 'boom' });
    expect(store.sessions.get(`qwen:${child}`)).toMatchObject({ parentId: `qwen:${MAIN}`, firstPrompt: 'investigate', userTurns: 1, toolNames: ['grep_search'] });
    expect(store.sessions.size).toBe(2);
  });

  it('links a sub-session to the session that created it (parent_session)', async () => {
    const SUB = '99999999-2222-4333-8444-555555555555';
    fs.writeFileSync(
      path.join(project, 'chats', `${SUB}.jsonl`),
      line({ ...base(SUB), type: 'system', provenance: 'system', subtype: 'parent_session', systemPayload: { parentSessionId: MAIN } }) + prompt(SUB, 'child work'),
    );
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([path.join(fx.home, 'alt-qwen')]));
    expect(store.sessions.get(`qwen:${SUB}`)).toMatchObject({ parentId: `qwen:${MAIN}`, firstPrompt: 'child work' });
  });

  it('a --fork-session copy of the source’s records (same uuids) counts once, in the source; the fork links to it', async () => {
    // As Qwen Code 0.24.4 writes it: the source's lines copied with the fork's sessionId, then the new turn.
    const source = [
      prompt(MAIN, 'Say hello.', { uuid: 'aaaaaaaa-0000-4000-8000-000000000001' }),
      line({ ...base(MAIN, { uuid: 'aaaaaaaa-0000-4000-8000-000000000002' }), type: 'system', provenance: 'system', subtype: 'ui_telemetry', systemPayload: {} }),
      line({ ...base(MAIN, { uuid: 'aaaaaaaa-0000-4000-8000-000000000003' }), type: 'assistant', provenance: 'assistant_output', message: { role: 'model', parts: [{ text: 'Hello!' }] }, usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 } }),
    ].join('');
    const FORK = '99999999-2222-4333-8444-555555555555';
    const sourceFile = path.join(project, 'chats', `${MAIN}.jsonl`);
    const forkFile = path.join(project, 'chats', `${FORK}.jsonl`);
    fs.writeFileSync(sourceFile, source);
    fs.writeFileSync(forkFile, source.replaceAll(MAIN, FORK) + prompt(FORK, 'Say bye.'));
    fs.utimesSync(forkFile, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([path.join(fx.home, 'alt-qwen')]));
    expect(store.sessions.get(`qwen:${MAIN}`)).toMatchObject({ userTurns: 1, firstPrompt: 'Say hello.', parentId: null, usage: expect.objectContaining({ input: 10, output: 2 }) });
    expect(store.sessions.get(`qwen:${FORK}`)).toMatchObject({ userTurns: 1, firstPrompt: 'Say bye.', parentId: `qwen:${MAIN}`, usage: expect.objectContaining({ input: 0, output: 0 }) });
    expect(store.messages.get(`qwen:${FORK}`)!.map((m) => m.text)).toEqual(['Say bye.']);
  });

  it('counts thoughts into output when the total shows them apart (Gemini API through Qwen)', async () => {
    fs.writeFileSync(
      path.join(project, 'chats', `${MAIN}.jsonl`),
      line({ ...base(MAIN), type: 'assistant', provenance: 'assistant_output', message: { role: 'model', parts: [{ text: 'hi' }] }, usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 62 } }),
    );
    const store = new MiniIndex();
    await store.readAll(createQwenAdapter([path.join(fx.home, 'alt-qwen')]));
    expect(store.sessions.get(`qwen:${MAIN}`)!.usage).toEqual({ input: 50, output: 12, cacheRead: 0, cacheWrite: 0, reasoning: 7 });
  });
});
