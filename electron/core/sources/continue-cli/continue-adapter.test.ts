import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { defaultStoreRoots } from '../../paths.js';
import { createContinueAdapter } from './continue-adapter.js';

const THREE_TURNS = '9fd09683-43ac-4495-9995-499ab3bee20c';
const COMPACTED = 'e57ee78b-c15c-403c-b755-082a7d14ed71';
const SUBAGENT = '391f076d-0058-4c69-b94b-c5384e52e840';

type Doc = { history: { message: { role: string; content: string } }[]; title: string };

describe('Continue cn adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.continue');
  });
  afterEach(() => fx.cleanup());
  const docOf = (id: string) => path.join(root, 'sessions', `${id}.json`);
  const unitOf = async (adapter: ReturnType<typeof createContinueAdapter>, id: string) => (await adapter.listUnits()).find((u) => u.path === docOf(id))!;
  /** cn's rewrite: a new document written whole, then renamed over the old one. */
  const rewrite = (id: string, change: (doc: Doc) => void) => {
    const doc = JSON.parse(fs.readFileSync(docOf(id), 'utf8')) as Doc;
    change(doc);
    fs.writeFileSync(`${docOf(id)}.tmp`, JSON.stringify(doc, null, 2));
    fs.renameSync(`${docOf(id)}.tmp`, docOf(id));
  };

  it('recovers every expected Continue session exactly (sessions.json is an index, not a session)', async () => {
    const adapter = createContinueAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    expect(expectRecovered('continue', store.sessions)).toHaveLength(9);
    for (const s of store.sessions.values()) {
      expect(s.model).toBe('mock-model');
      expect(s.messageCount).toBe(store.messages.get(s.id)!.length);
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
      expect(s.startedAt).toMatch(/^2026-/); // from sessions.json dateCreated
    }
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: 9, skippedLines: 0 });
    expect(store.diagnostics).toEqual([]);
  });

  it('pairs each tool call with its result from toolCallStates; usage and cost from the document totals', async () => {
    const store = new MiniIndex();
    await store.readAll(createContinueAdapter([root]));
    const msgs = store.messages.get(`continue:${THREE_TURNS}`)!;
    const write = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'Write')!;
    expect(JSON.parse(write.text)).toMatchObject({ filepath: '/home/ana/projects/demo-app/NOTES.md' });
    expect(msgs[msgs.indexOf(write) + 1]).toMatchObject({ role: 'tool', kind: 'tool_result', toolName: 'Write', toolCallId: write.toolCallId, isError: false });
    const doc = JSON.parse(fs.readFileSync(docOf(THREE_TURNS), 'utf8')) as { usage: { promptTokens: number; completionTokens: number; totalCost: number } };
    expect(store.sessions.get(`continue:${THREE_TURNS}`)!.usage).toMatchObject({ input: doc.usage.promptTokens, output: doc.usage.completionTokens, costUsd: doc.usage.totalCost });
  });

  it('a compacted session starts at its summary; a subagent call and its report stay in the parent', async () => {
    const store = new MiniIndex();
    await store.readAll(createContinueAdapter([root]));
    expect(store.messages.get(`continue:${COMPACTED}`)![0]).toMatchObject({ role: 'system', text: expect.stringContaining('<summary>') });
    const sub = store.messages.get(`continue:${SUBAGENT}`)!;
    const call = sub.find((m) => m.toolName === 'Subagent' && m.kind === 'tool_call')!;
    expect(sub.find((m) => m.kind === 'tool_result' && m.toolCallId === call.toolCallId)!.text).toContain('task_metadata');
  });

  it('a rewrite that adds a turn delivers only the new messages; an unchanged document is not read again', async () => {
    const adapter = createContinueAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const before = store.sessions.get(`continue:${THREE_TURNS}`)!;
    expect(await store.read(adapter, await unitOf(adapter, THREE_TURNS))).toEqual([]);
    rewrite(THREE_TURNS, (d) => {
      d.history.push({ message: { role: 'user', content: 'One more: run the tests.' } });
      d.title = 'Repo notes';
    });
    const batches = await store.read(adapter, await unitOf(adapter, THREE_TURNS));
    expect(batches.flatMap((b) => b.resetSessions)).toEqual([]);
    expect(batches.flatMap((b) => b.messages)).toEqual([expect.objectContaining({ role: 'user', text: 'One more: run the tests.', seq: before.messageCount })]);
    expect(store.sessions.get(`continue:${THREE_TURNS}`)).toMatchObject({ userTurns: 4, title: 'Repo notes', firstPrompt: before.firstPrompt });
  });

  it('a rewrite that replaces the history (/compact) re-delivers the session afresh', async () => {
    const adapter = createContinueAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    rewrite(THREE_TURNS, (d) => {
      d.history = [{ message: { role: 'user', content: 'Only this now.' } }];
    });
    const batches = await store.read(adapter, await unitOf(adapter, THREE_TURNS));
    expect(batches[0]!.resetSessions).toEqual([`continue:${THREE_TURNS}`]);
    expect(store.messages.get(`continue:${THREE_TURNS}`)!.map((m) => m.text)).toEqual(['Only this now.']);
  });

  it('hostile input: a document caught mid-rewrite keeps what was indexed; a foreign JSON file is skipped; gone documents are gone', async () => {
    const adapter = createContinueAdapter([root]);
    const store = new MiniIndex();
    await store.readAll(adapter);
    const kept = store.messages.get(`continue:${THREE_TURNS}`)!.length;
    fs.writeFileSync(docOf(THREE_TURNS), fs.readFileSync(docOf(THREE_TURNS), 'utf8').slice(0, 500));
    expect(await store.read(adapter, await unitOf(adapter, THREE_TURNS))).toEqual([]);
    expect(store.messages.get(`continue:${THREE_TURNS}`)).toHaveLength(kept);
    expect(store.diagnostics).toEqual([expect.objectContaining({ file: docOf(THREE_TURNS), message: expect.stringContaining('not valid JSON') })]);
    fs.writeFileSync(path.join(root, 'sessions', 'notes.json'), '{"hello": 1}');
    await store.read(adapter, (await adapter.listUnits()).find((u) => u.path.endsWith('notes.json'))!);
    expect(store.sessions.size).toBe(9);
    const unit = await unitOf(adapter, SUBAGENT);
    fs.rmSync(unit.path);
    const gone = await store.read(adapter, unit);
    expect(gone.flatMap((b) => b.goneSessions)).toEqual([`continue:${SUBAGENT}`]);
  });

  it('never writes the store; a missing store is not_found; CONTINUE_GLOBAL_DIR moves it', async () => {
    const before = sha256Tree(root);
    await new MiniIndex().readAll(createContinueAdapter([root]));
    expect(sha256Tree(root)).toEqual(before);
    const missing = createContinueAdapter([path.join(fx.home, 'nope')]);
    expect(await missing.listUnits()).toEqual([]);
    expect(missing.status().state).toBe('not_found');
    expect(defaultStoreRoots('continue', { env: {}, platform: 'linux', home: '/h' })).toEqual(['/h/.continue']);
    expect(defaultStoreRoots('continue', { env: { CONTINUE_GLOBAL_DIR: '/x/c' }, platform: 'linux', home: '/h' })).toEqual(['/x/c']);
    expect(createContinueAdapter([root]).watchRoots!()).toEqual([path.join(root, 'sessions')]);
    const typed = new MiniIndex(); // the sessions folder itself, as typed in Settings
    await typed.readAll(createContinueAdapter([path.join(root, 'sessions')]));
    expect(typed.sessions.size).toBe(9);
  });
});
