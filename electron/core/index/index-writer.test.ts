import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Session, UsageEvent } from '../../../shared/model.js';
import type { ReadBatch } from '../sources/types.js';
import { openIndexForWriting, type IndexDb } from './index-db.js';
import { IndexWriter } from './index-writer.js';
import { mergeUsage } from './usage-merge.js';
import { CursorCadence } from '../sources/session-batches.js';

const unit = { key: '/s/a.jsonl', path: '/s/a.jsonl', size: 1, mtimeMs: 1 };

function session(native: string): Session {
  return {
    id: `claude:${native}`, agent: 'claude', nativeId: native, title: native, cwd: '/p', gitBranch: null, gitCommit: null,
    model: null, startedAt: null, updatedAt: null, firstPrompt: null, userTurns: 0, messageCount: 0, toolNames: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, parentId: null, sourcePath: unit.path, bytes: 0,
  };
}

function message(s: Session, seq: number, text: string, kind: Message['kind'] = 'text'): Message {
  return { sessionId: s.id, seq, role: 'user', kind, text, toolName: null, toolCallId: null, isError: false, timestamp: null, nativeId: null };
}

function batch(over: Partial<ReadBatch>): ReadBatch {
  return { sessions: [], messages: [], resetSessions: [], goneSessions: [], cursor: null, bytesRead: 0, ...over };
}

describe('IndexWriter keeps FTS in step with messages', () => {
  let dir: string;
  let db: IndexDb;
  let writer: IndexWriter;
  const hits = (word: string) => db.prepare('SELECT rowid FROM message_fts WHERE message_fts MATCH ? ORDER BY rowid').pluck().all(`"${word}"`);
  const integrity = () => db.prepare("INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)").run();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-writer-'));
    db = openIndexForWriting(dir);
    writer = new IndexWriter(db);
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('re-indexes a message rewritten in place and drops a reset session’s entries', () => {
    const s = session('one');
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'alpha words'), message(s, 1, 'hidden plan', 'thinking')] }));
    expect(hits('alpha')).toHaveLength(1);
    expect(hits('hidden')).toHaveLength(0); // thinking is not searchable
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'beta words')] }));
    expect([hits('alpha'), hits('beta'), hits('words')].map((h) => h.length)).toEqual([0, 1, 1]);
    writer.apply('claude', unit, batch({ sessions: [s], resetSessions: [s.id], messages: [message(s, 0, 'gamma')] }));
    expect([hits('beta'), hits('words'), hits('gamma')].map((h) => h.length)).toEqual([0, 0, 1]);
    expect(() => integrity()).not.toThrow();
  });

  it('writes runs of new messages in one statement, and re-reads, rewrites and repeats in a run as before', () => {
    const s = session('runs');
    const many = (n: number, word: (i: number) => string) => Array.from({ length: n }, (_, i) => message(s, i, `${word(i)} m${i}`, i % 5 === 4 ? 'thinking' : 'text'));
    const stored = () => db.prepare('SELECT id % 16777216 AS seq, kind, text FROM messages ORDER BY id').all();
    const first = writer.apply('claude', unit, batch({ sessions: [s], messages: many(40, () => 'alpha') }));
    expect(first.messagesWritten).toBe(40);
    expect(stored()).toEqual(many(40, () => 'alpha').map((m) => ({ seq: m.seq, kind: m.kind, text: m.text })));
    expect(hits('alpha')).toHaveLength(32); // every fifth is thinking: stored, not searchable
    // The same messages again: the run's ids are stored, so each row is compared, and none changed.
    expect(writer.apply('claude', unit, batch({ sessions: [s], messages: many(40, () => 'alpha') })).messagesWritten).toBe(0);
    // One rewritten in the middle of a run, and new ones after it: only those are written.
    const next = many(60, (i) => (i === 20 ? 'beta' : 'alpha'));
    expect(writer.apply('claude', unit, batch({ sessions: [s], messages: next })).messagesWritten).toBe(21);
    expect(hits('beta')).toHaveLength(1);
    expect(hits('m20')).toHaveLength(1);
    expect(hits('alpha')).toHaveLength(47);
    // A seq repeated inside what would be a run: the later one rewrites it, as one row at a time does.
    const t = session('repeat');
    const repeated = Array.from({ length: 20 }, (_, i) => message(t, i < 10 ? i : i - 1, `gamma${i}`));
    writer.apply('claude', unit, batch({ sessions: [t], messages: repeated }));
    expect(hits('gamma9')).toHaveLength(0);
    expect(hits('gamma10')).toHaveLength(1);
    expect(db.prepare('SELECT count(*) FROM messages WHERE id >= ? AND id < ?').pluck().get(2 * 16777216, 3 * 16777216)).toBe(19);
    expect(() => integrity()).not.toThrow();
  });

  it('stores usage events upserted many to a statement as one upsert per event would', () => {
    const [a, b] = [session('ua'), session('ub')];
    const event = (s: Session, n: number, over: Partial<UsageEvent> = {}): UsageEvent => ({
      sessionId: s.id, key: `msg_${n}`, at: n % 3 ? `2026-01-0${1 + (n % 9)}T00:00:00Z` : null, model: n % 4 ? `m${n % 4}` : null,
      input: n, output: 2 * n, cacheRead: n % 5, cacheWrite: 1, reasoning: 0, contextWindow: n % 2 ? 1000 + n : null, limits: null, ...over,
    });
    const first = [...Array.from({ length: 23 }, (_, n) => event(a, n)), ...Array.from({ length: 17 }, (_, n) => event(b, n))];
    // The same keys again, some counts higher, some lower, other models and times: an upsert per row.
    const second = Array.from({ length: 30 }, (_, n) => event(n % 2 ? a : b, n + 10, { input: n % 2 ? 1000 : 0, model: 'later', at: '2025-12-31T00:00:00Z', limits: [{ name: 'primary', usedPercent: n, windowMinutes: 300, resetsAt: null, note: null }] }));
    writer.apply('claude', unit, batch({ sessions: [a, b], usage: first }));
    writer.apply('claude', unit, batch({ sessions: [a, b], usage: second }));
    const rowid = (id: string) => db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck().get(id) as number;
    const expected = mergeUsage([...first, ...second])
      .map((u) => ({ session_rowid: rowid(u.sessionId), key: u.key, at: u.at, model: u.model, input: u.input, output: u.output, cache_read: u.cacheRead,
        cache_write: u.cacheWrite, reasoning: u.reasoning, context_window: u.contextWindow, limits: u.limits ? JSON.stringify(u.limits) : null }))
      .sort((x, y) => x.session_rowid - y.session_rowid || x.key.localeCompare(y.key));
    expect(db.prepare('SELECT * FROM usage_events ORDER BY session_rowid, key').all()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(40);
  });

  it('a failed batch in a group transaction leaves neither its rows nor its FTS entries', () => {
    const s = session('two');
    writer.beginGroup();
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'kept? no: rolled back with the group')] }));
    const broken = { ...message(s, 1, 'delta'), role: null } as unknown as Message; // NOT NULL violation
    expect(() => writer.apply('claude', unit, batch({ messages: [message(s, 2, 'epsilon'), broken] }))).toThrow();
    writer.endGroup();
    expect([hits('rolled'), hits('epsilon'), hits('delta')].map((h) => h.length)).toEqual([0, 0, 0]);
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
    // The writer goes on cleanly after the failure.
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'zeta')] }));
    expect(hits('zeta')).toHaveLength(1);
    expect(() => integrity()).not.toThrow();
  });

  it('group commits carry every batch’s FTS entries, in rowid order of the messages', () => {
    const a = session('a');
    const b = session('b');
    writer.beginGroup();
    writer.apply('claude', unit, batch({ sessions: [a], messages: [message(a, 0, 'shared term'), message(a, 1, 'shared again')] }));
    writer.apply('claude', unit, batch({ sessions: [b], messages: [message(b, 0, 'shared too')] }));
    writer.endGroup();
    const ids = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all();
    expect(hits('shared')).toEqual(ids);
    expect(() => integrity()).not.toThrow();
  });

  it('a bulk group writes without fsyncs and restores NORMAL after; an ordinary group keeps NORMAL', () => {
    const s = session('bulk');
    expect(writer.synchronousLevel()).toBe(1);
    writer.beginGroup({ bulk: true });
    expect(writer.synchronousLevel()).toBe(0);
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'bulk words')] }));
    writer.endGroup();
    expect(writer.synchronousLevel()).toBe(1);
    expect(hits('bulk')).toHaveLength(1);
    writer.beginGroup();
    expect(writer.synchronousLevel()).toBe(1);
    writer.endGroup();
  });

  it('a batch without a cursor keeps the saved one, and marks the unit mid-read', () => {
    const s = session('c');
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 0, 'one')], cursor: { at: 1 }, bytesRead: 10 }));
    writer.markSynced('claude', unit);
    writer.apply('claude', unit, batch({ sessions: [s], messages: [message(s, 1, 'two')], cursor: undefined, bytesRead: 5 }));
    expect(writer.getUnit(unit.key)).toMatchObject({ cursor: { at: 1 }, syncedSize: null });
    expect(db.prepare('SELECT bytes_read FROM units WHERE key = ?').pluck().get(unit.key)).toBe(15);
    writer.apply('claude', unit, batch({ messages: [message(s, 2, 'three')], cursor: { at: 3 } }));
    expect(writer.getUnit(unit.key)!.cursor).toEqual({ at: 3 });
  });
});

describe('CursorCadence', () => {
  it('lets a cursor of n entries go with a batch once 4n messages went without one', () => {
    const cadence = new CursorCadence();
    // 10 entries: due at 40 messages since the last cursor; a small cursor is due at once.
    expect([10, 10, 10, 10, 10].map((m) => cadence.due(m, 10))).toEqual([false, false, false, true, false]);
    expect(cadence.due(1, 0)).toBe(true);
  });
});
