import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Message, Session, UsageEvent } from '../../../../shared/model.js';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { defaultStoreRoots } from '../../paths.js';
import { createAgentAdapter } from '../local-adapters.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../types.js';
import { createClineAdapter } from './cline-adapter.js';
import { unwrapPrompt } from './cline-records.js';

/** The index's side of reading: sessions, messages (seq checked), cursors and diagnostics. */
class MiniIndex {
  sessions = new Map<string, Session>();
  messages = new Map<string, Message[]>();
  usage: UsageEvent[] = [];
  cursors = new Map<string, JsonValue>();
  diagnostics: Omit<Diagnostic, 'at'>[] = [];
  bytesRead = 0;

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
      this.usage.push(...(b.usage ?? []));
      this.bytesRead += b.bytesRead;
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

const LEAD = '1795751658989_livtj';
const SUB = `${LEAD}__agent_1795751661047_33j7qv`;
const THREE_TURNS = '1795751442326_virap';

describe('Cline adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  const doc = (id: string) => path.join(root, 'sessions', id, `${id}.messages.json`);
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.cline', 'data');
  });
  afterEach(() => fx.cleanup());

  it('reads every session exactly as expected.json says (subagent, resume, compaction, CJK, secret prompt)', async () => {
    const index = new MiniIndex();
    await index.readAll(createClineAdapter([root]));
    expectRecovered('cline', index.sessions);
    const sub = index.sessions.get(`cline:${SUB}`)!;
    expect(sub.parentKind).toBe('subagent');
    // The resumed session's three prompts are its three user turns, each unwrapped.
    const prompts = index.messages.get(`cline:${THREE_TURNS}`)!.filter((m) => m.role === 'user').map((m) => m.text);
    expect(prompts).toHaveLength(3);
    expect(prompts.every((p) => !p.includes('<user_input'))).toBe(true);
    expect(index.diagnostics).toEqual([]);
  });

  it('records per-request usage from each assistant message and totals it on the session', async () => {
    const index = new MiniIndex();
    await index.readAll(createClineAdapter([root]));
    const raw = JSON.parse(fs.readFileSync(doc(LEAD), 'utf8')) as { messages: { role: string; metrics?: { inputTokens: number; outputTokens: number } }[] };
    const metrics = raw.messages.filter((m) => m.role === 'assistant' && m.metrics).map((m) => m.metrics!);
    const events = index.usage.filter((u) => u.sessionId === `cline:${LEAD}`);
    expect(events.map((e) => [e.input, e.output])).toEqual(metrics.map((m) => [m.inputTokens, m.outputTokens]));
    expect(index.sessions.get(`cline:${LEAD}`)!.usage.input).toBe(metrics.reduce((n, m) => n + m.inputTokens, 0));
    expect(events[0]!.model).toBe('mock-model');
  });

  it('re-reads only a rewritten document; an unchanged one is never opened again', async () => {
    const adapter = createClineAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    index.bytesRead = 0;
    expect((await index.readAll(adapter)).length).toBe(0);
    expect(index.bytesRead).toBe(0);

    // Cline rewrites the whole document after a step: one more user turn.
    const file = doc(THREE_TURNS);
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: unknown[] };
    value.messages.push({ id: 'new-turn', role: 'user', content: [{ type: 'text', text: '<user_input mode="act">And one more thing?</user_input>' }], ts: 1795751999999 });
    fs.writeFileSync(file, JSON.stringify(value));
    const batches = await index.readAll(adapter);
    expect(batches.flatMap((b) => b.sessions.map((s) => s.id))).toEqual([`cline:${THREE_TURNS}`]);
    expect(batches[0]!.resetSessions).toEqual([`cline:${THREE_TURNS}`]);
    expect(index.sessions.get(`cline:${THREE_TURNS}`)!.userTurns).toBe(4);
    expect(index.bytesRead).toBeLessThan(fs.statSync(file).size * 2);
  });

  it('a manifest change (title, status) re-reads its session', async () => {
    const adapter = createClineAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const manifest = path.join(root, 'sessions', LEAD, `${LEAD}.json`);
    const value = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { metadata: { title: string } };
    value.metadata.title = 'Renamed';
    fs.writeFileSync(manifest, JSON.stringify(value));
    await index.readAll(adapter);
    expect(index.sessions.get(`cline:${LEAD}`)!.title).toBe('Renamed');
  });

  it('a truncated (half-written) document keeps what was indexed and says so; it reads once whole again', async () => {
    const adapter = createClineAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const file = doc(THREE_TURNS);
    const whole = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, whole.slice(0, Math.floor(whole.length / 2)));
    await expect(index.readAll(adapter)).resolves.toBeDefined();
    expect(index.sessions.get(`cline:${THREE_TURNS}`)!.userTurns).toBe(3);
    expect(index.diagnostics.some((d) => d.file === file && /not valid JSON/.test(d.message))).toBe(true);
    fs.writeFileSync(file, whole);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await index.readAll(adapter);
    expect(index.messages.get(`cline:${THREE_TURNS}`)!.length).toBe(index.sessions.get(`cline:${THREE_TURNS}`)!.messageCount);
  });

  it('an unknown newer format version is read as far as understood and reported', async () => {
    const file = doc(LEAD);
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number };
    value.version = 2;
    fs.writeFileSync(file, JSON.stringify(value));
    const index = new MiniIndex();
    await index.readAll(createClineAdapter([root]));
    expect(index.sessions.get(`cline:${LEAD}`)!.userTurns).toBe(1);
    expect(index.diagnostics.some((d) => d.file === file && /unknown transcript format version 2/.test(d.message))).toBe(true);
  });

  it('a deleted session folder is reported gone by its unit', async () => {
    const adapter = createClineAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const units = await adapter.listUnits();
    const unit = units.find((u) => u.path === doc(LEAD))!;
    fs.rmSync(path.dirname(doc(LEAD)), { recursive: true });
    const batches = await index.readUnit(adapter, unit);
    expect(batches.flatMap((b) => b.goneSessions)).toEqual([`cline:${LEAD}`]);
  });

  it('never writes into the store, and is the default for ~/.cline/data', async () => {
    const before = sha256Tree(fx.home);
    const roots = defaultStoreRoots('cline', { env: fx.env, platform: 'linux', home: fx.home });
    expect(roots).toEqual([root]);
    const index = new MiniIndex();
    await index.readAll(createAgentAdapter('cline', roots));
    expect(index.sessions.size).toBe(10);
    expect(sha256Tree(fx.home)).toEqual(before);
  });

  it('reads a sessions folder of any name moved by CLINE_SESSION_DATA_DIR', async () => {
    const moved = path.join(fx.home, 'elsewhere', 'transcripts');
    fs.mkdirSync(path.dirname(moved), { recursive: true });
    fs.renameSync(path.join(root, 'sessions'), moved);
    const roots = defaultStoreRoots('cline', { env: { ...fx.env, CLINE_SESSION_DATA_DIR: moved }, platform: 'linux', home: fx.home });
    expect(roots).toEqual([moved]);
    const index = new MiniIndex();
    await index.readAll(createAgentAdapter('cline', roots));
    expectRecovered('cline', index.sessions);
  });

  it('a missing store is not found, not an error', async () => {
    const adapter = createClineAdapter([path.join(fx.home, 'nowhere')]);
    expect(await adapter.listUnits()).toEqual([]);
    expect(adapter.status().state).toBe('not_found');
  });
});

describe('unwrapPrompt', () => {
  it('drops the <user_input> wrapper of every mode, and leaves other text alone', () => {
    expect(unwrapPrompt('<user_input mode="act">hi\nthere</user_input>')).toBe('hi\nthere');
    expect(unwrapPrompt('<user_input mode="plan">x</user_input>')).toBe('x');
    expect(unwrapPrompt('plain <user_input> text')).toBe('plain <user_input> text');
  });
});
