import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { readUnit } from '../../../../testing/read-unit.js';
import { defaultStoreRoots } from '../../paths.js';
import { createCopilotAdapter } from './copilot-adapter.js';

const RESUMED = '97f2ac22-8cf0-435c-8d9c-0b3d07fd019b';
const SUBAGENT = '643d9374-5be2-4c76-9c39-a61a9342407a';
const RENAMED = '90e6c991-0eef-42c3-8179-147f12a45c62';
const COMPACTED = '30cf7f1a-f830-4b8f-8877-60224d3020dd';

const line = (type: string, data: Record<string, unknown>, timestamp = '2026-11-27T04:00:00.000Z') =>
  `${JSON.stringify({ type, data, id: `e-${Math.random().toString(36).slice(2)}`, timestamp, parentId: null })}\n`;

describe('GitHub Copilot CLI adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.copilot');
  });
  afterEach(() => fx.cleanup());
  const eventsOf = (id: string) => path.join(root, 'session-state', id, 'events.jsonl');

  it('recovers every expected Copilot session exactly (titles from workspace.yaml, branch from the context)', async () => {
    const adapter = createCopilotAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    expect(expectRecovered('copilot', store.sessions)).toHaveLength(9);
    for (const s of store.sessions.values()) {
      expect(s.model).toBe('mock-model');
      expect(s.messageCount).toBe(store.messages.get(s.id)!.length);
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
      expect(s.startedAt).not.toBeNull();
    }
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: 9, skippedLines: 0 });
    expect(store.diagnostics).toEqual([]);
  });

  it('keeps a resumed session whole, tool calls paired with their named results, and sums usage records', async () => {
    const store = new MiniIndex();
    await store.readAll(createCopilotAdapter([root]));
    const msgs = store.messages.get(`copilot:${RESUMED}`)!;
    const create = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'create')!;
    const result = msgs.find((m) => m.kind === 'tool_result' && m.toolCallId === create.toolCallId)!;
    expect(result).toMatchObject({ toolName: 'create', isError: false });
    expect(result.text).toContain('Created file');
    const sum = { input: 0, output: 0 };
    for (const l of fs.readFileSync(eventsOf(RESUMED), 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(l) as { type: string; data: { usage?: { inputTokens: number; outputTokens: number } } };
      if (r.type === 'session.usage_record') {
        sum.input += r.data.usage!.inputTokens;
        sum.output += r.data.usage!.outputTokens;
      }
    }
    expect(sum.input).toBeGreaterThan(0);
    expect(store.sessions.get(`copilot:${RESUMED}`)!.usage).toMatchObject(sum);
    // One per-request row per usage record, adding up to the totals.
    const rows = (await readUnit(createCopilotAdapter([root]), { key: eventsOf(RESUMED), path: eventsOf(RESUMED), size: 0, mtimeMs: 0 }, null)).batches.flatMap((b) => b.usage ?? []);
    expect(rows.length).toBe(5);
    expect(rows.reduce((a, r) => a + r.input, 0)).toBe(sum.input);
    expect(rows.every((r) => r.model === 'mock-model' && r.at !== null)).toBe(true);
  });

  it("keeps a subagent's own work out of the parent's turns and tools; its report is the task result", async () => {
    const store = new MiniIndex();
    await store.readAll(createCopilotAdapter([root]));
    const msgs = store.messages.get(`copilot:${SUBAGENT}`)!;
    expect(msgs.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(msgs.filter((m) => m.role === 'system').map((m) => m.text)).toEqual(['Run `git log --oneline` and report the commit subjects back to me.']);
    expect(msgs.some((m) => m.kind === 'tool_call' && m.toolName === 'bash')).toBe(false);
    expect(msgs.find((m) => m.kind === 'tool_result' && m.toolName === 'task')).toBeDefined();
  });

  it('shows the /compact summary as a system message and keeps the turns before it', async () => {
    const store = new MiniIndex();
    await store.readAll(createCopilotAdapter([root]));
    const msgs = store.messages.get(`copilot:${COMPACTED}`)!;
    const summary = msgs.findIndex((m) => m.role === 'system' && m.text.includes('<summary>'));
    expect(summary).toBeGreaterThan(0);
    expect(msgs.slice(0, summary).filter((m) => m.role === 'user')).toHaveLength(2);
  });

  it('reads only an appended resume; a /rename alone (workspace.yaml) re-titles without reading events', async () => {
    const adapter = createCopilotAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const before = store.sessions.get(`copilot:${RESUMED}`)!;
    const added = line('user.message', { content: 'And the tests?' });
    fs.appendFileSync(eventsOf(RESUMED), added);
    const unitOf = async (id: string) => (await adapter.listUnits()).find((u) => u.path === eventsOf(id))!;
    const batches = await store.read(adapter, await unitOf(RESUMED));
    expect(batches.flatMap((b) => b.messages)).toEqual([expect.objectContaining({ role: 'user', text: 'And the tests?', seq: before.messageCount })]);
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    expect(store.sessions.get(`copilot:${RESUMED}`)).toMatchObject({ userTurns: 4, title: before.title });

    const yaml = path.join(root, 'session-state', RENAMED, 'workspace.yaml');
    fs.writeFileSync(yaml, fs.readFileSync(yaml, 'utf8').replace('name: Demo app review', 'name: Greeting fix').replace('user_named: false', 'user_named: true'));
    const renamed = await store.read(adapter, await unitOf(RENAMED));
    expect(renamed.flatMap((b) => b.messages)).toEqual([]);
    expect(renamed.reduce((a, b) => a + b.bytesRead, 0)).toBe(0);
    expect(store.sessions.get(`copilot:${RENAMED}`)!.title).toBe('Greeting fix');
    // Nothing new → nothing read.
    expect(await store.read(adapter, await unitOf(RENAMED))).toEqual([]);
  });

  it('hostile input: a truncated last line waits, an unknown event type and a broken workspace.yaml are reported or skipped, never fatal', async () => {
    const adapter = createCopilotAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    fs.appendFileSync(eventsOf(RESUMED), line('session.future_thing', { v: 99 }) + '{"type":"user.message","data":{"content":"half');
    fs.writeFileSync(path.join(root, 'session-state', RESUMED, 'workspace.yaml'), 'name: [unclosed\n');
    const unit = (await adapter.listUnits()).find((u) => u.path === eventsOf(RESUMED))!;
    await store.read(adapter, unit);
    const s = store.sessions.get(`copilot:${RESUMED}`)!;
    expect(s.userTurns).toBe(3);
    expect(s.title).toBe('Run `ls -la` and give me a quick overview of the files here.');
    expect(adapter.status().diagnostics.some((d) => d.message.includes('workspace.yaml could not be read'))).toBe(true);
  });

  it('never writes the store; skips lock folders; a missing store is not_found; COPILOT_HOME moves it', async () => {
    fs.mkdirSync(path.join(root, 'session-state', '.session-operation-locks'), { recursive: true });
    const before = sha256Tree(root);
    await new MiniIndex().readAll(createCopilotAdapter([root]));
    expect(sha256Tree(root)).toEqual(before);
    const missing = createCopilotAdapter([path.join(fx.home, 'nope')]);
    expect(await missing.listUnits()).toEqual([]);
    expect(missing.status().state).toBe('not_found');
    expect(defaultStoreRoots('copilot', { env: {}, platform: 'linux', home: '/h' })).toEqual(['/h/.copilot']);
    expect(defaultStoreRoots('copilot', { env: { COPILOT_HOME: '/x/cp' }, platform: 'linux', home: '/h' })).toEqual(['/x/cp']);
    // The session-state folder itself, as typed in Settings, reads the same store.
    const store = new MiniIndex();
    await store.readAll(createCopilotAdapter([path.join(root, 'session-state')]));
    expect(store.sessions.size).toBe(9);
    expect(createCopilotAdapter([root]).watchRoots!()).toEqual([path.join(root, 'session-state')]);
  });
});
