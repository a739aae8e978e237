import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { defaultStoreRoots } from '../../paths.js';
import { HEAD_BYTES } from '../jsonl/jsonl-tail.js';
import { createLettaAdapter } from './letta-adapter.js';
import { conversationKey } from './letta-records.js';

const folder = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
const CONVERSATIONS = ['.letta', 'lc-local-backend', 'conversations'];
const SUBAGENT = 'default:agent-local-a37cafd9-fc43-4511-b09d-b67b9d83b384';

describe('Letta Code adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  const conv = (key: string, file: string) => path.join(fx.home, ...CONVERSATIONS, folder(key), file);
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.letta');
  });
  afterEach(() => fx.cleanup());

  it('recovers every conversation exactly as expected.json lists it, and never writes the store', async () => {
    const before = sha256Tree(root);
    const index = new MiniIndex();
    await index.readAll(createLettaAdapter([root]));
    expectRecovered('letta', index.sessions);
    expect(sha256Tree(root)).toEqual(before);
    expect(index.diagnostics).toEqual([]);
  });

  it('default root ~/.letta; lc-local-backend given as the root works too; folder names decode to keys', async () => {
    expect(defaultStoreRoots('letta', { env: {}, platform: 'linux', home: '/home/ana' })).toEqual(['/home/ana/.letta']);
    const index = new MiniIndex();
    await index.readAll(createLettaAdapter([path.join(root, 'lc-local-backend')]));
    expect(index.sessions.size).toBe(10);
    expect(createLettaAdapter([root]).watchRoots!()).toEqual([path.join(fx.home, ...CONVERSATIONS)]);
    expect(conversationKey(folder('conversation:local-conv-12'))).toBe('local-conv-12');
    expect(conversationKey(folder(SUBAGENT))).toBe(SUBAGENT);
    expect(conversationKey('not base64 at all!')).toBeNull();
  });

  it('drops injected reminders, keeps a subagent report as context, links the subagent to its parent', async () => {
    const index = new MiniIndex();
    await index.readAll(createLettaAdapter([root]));
    const parent = index.messages.get('letta:local-conv-9')!;
    expect(parent.some((m) => m.text.includes('<system-reminder>'))).toBe(false);
    expect(parent.filter((m) => m.text.startsWith('<task-notification>')).map((m) => m.role)).toEqual(['system']);
    expect(index.sessions.get(`letta:${SUBAGENT}`)).toMatchObject({ parentId: 'letta:local-conv-9', parentKind: 'subagent', gitBranch: null });
    expect(index.sessions.get('letta:local-conv-1')!.usage.output).toBeGreaterThan(0);
  });

  it('delivers each request\'s usage (context fill is the last prompt), summing to the session totals', async () => {
    const adapter = createLettaAdapter([root]);
    const unit = (await adapter.listUnits()).find((u) => u.path === conv('conversation:local-conv-1', 'messages.jsonl'))!;
    const batches = await new MiniIndex().read(adapter, unit);
    const events = batches.flatMap((b) => b.usage ?? []);
    expect(events.map((e) => [e.input, e.output])).toEqual([
      [7474, 50],
      [7695, 47],
      [7830, 57],
    ]);
    const session = batches.flatMap((b) => b.sessions).find((s) => s.id === 'letta:local-conv-1')!;
    expect(session.usage).toMatchObject({ input: 7474 + 7695 + 7830, output: 50 + 47 + 57 });
    expect(events.every((e) => e.sessionId === 'letta:local-conv-1' && e.model === 'mock-model')).toBe(true);
  });

  it('a /rename rewrites conversation.json only: the title follows without re-reading messages.jsonl', async () => {
    const adapter = createLettaAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = conv('conversation:local-conv-5', 'conversation.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { summary: string };
    doc.summary = 'Renamed review';
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    const unit = (await adapter.listUnits()).find((u) => u.path === conv('conversation:local-conv-5', 'messages.jsonl'))!;
    const batches = await index.read(adapter, unit);
    expect(batches.reduce((n, b) => n + b.bytesRead, 0)).toBe(0);
    expect(index.sessions.get('letta:local-conv-5')!.title).toBe('Renamed review');
  });

  it('an append (a resumed conversation) reads only the new bytes', async () => {
    const adapter = createLettaAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = conv('conversation:local-conv-2', 'messages.jsonl');
    const size = fs.statSync(file).size;
    const line = { type: 'message', id: 'ffff0001', parentId: null, timestamp: '2026-11-27T05:00:00.000Z', message: { id: 'ui-msg-99', role: 'user', content: [{ type: 'text', text: 'One more question about NOTES.md' }] } };
    const last = fs.readFileSync(file, 'utf8').trimEnd().split('\n').pop()!;
    line.parentId = (JSON.parse(last) as { id: string }).id as unknown as null;
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    const unit = (await adapter.listUnits()).find((u) => u.path === file)!;
    const batches = await index.read(adapter, unit);
    expect(batches.reduce((n, b) => n + b.bytesRead, 0)).toBe(fs.statSync(file).size - size + HEAD_BYTES); // + the head check that the file was not replaced
    expect(index.sessions.get('letta:local-conv-2')!.userTurns).toBe(4);
  });

  it('hostile input: a truncated line, an unknown entry type, a corrupt conversation.json: the rest is read', async () => {
    const messages = conv('conversation:local-conv-1', 'messages.jsonl');
    const lastId = (JSON.parse(fs.readFileSync(messages, 'utf8').trimEnd().split('\n').pop()!) as { id: string }).id;
    fs.appendFileSync(messages, `{"type":"quantum_leap","id":"abcd0001","parentId":"${lastId}","payload":{"v":9}}\n{"type":"message","id":"ab`);
    fs.writeFileSync(conv('conversation:local-conv-5', 'conversation.json'), '{"id": "local-conv-5", "summ');
    const adapter = createLettaAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    expect(index.sessions.size).toBe(10);
    expect(index.sessions.get('letta:local-conv-1')!.firstPrompt ?? '').toMatch(/^Please run `git status`/);
    expect(index.sessions.get('letta:local-conv-5')!.title).toBeNull();
    expect(adapter.status().diagnostics.some((d) => /not valid JSON/.test(d.message))).toBe(true);
  });
});
