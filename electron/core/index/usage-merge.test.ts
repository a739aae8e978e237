import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { UsageEvent } from '../../../shared/model.js';
import { mergeUsage } from './usage-merge.js';

function usage(over: Partial<UsageEvent>): UsageEvent {
  return { sessionId: 'claude:s', key: 'msg_1', at: null, model: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, contextWindow: null, limits: null, ...over };
}

/** The writer's upsert (index-writer.ts) on a real SQLite table: what one call per event stores. */
function storedOneByOne(events: UsageEvent[]): unknown[] {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE usage_events (session_rowid INTEGER NOT NULL, key TEXT NOT NULL, at TEXT, model TEXT, input INTEGER NOT NULL DEFAULT 0,
    output INTEGER NOT NULL DEFAULT 0, cache_read INTEGER NOT NULL DEFAULT 0, cache_write INTEGER NOT NULL DEFAULT 0, reasoning INTEGER NOT NULL DEFAULT 0,
    context_window INTEGER, limits TEXT, PRIMARY KEY (session_rowid, key)) WITHOUT ROWID`);
  const upsert = db.prepare(`INSERT INTO usage_events (session_rowid, key, at, model, input, output, cache_read, cache_write, reasoning, context_window, limits)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (session_rowid, key) DO UPDATE SET at = coalesce(at, excluded.at), model = coalesce(excluded.model, model),
      input = max(input, excluded.input), output = max(output, excluded.output), cache_read = max(cache_read, excluded.cache_read),
      cache_write = max(cache_write, excluded.cache_write), reasoning = max(reasoning, excluded.reasoning),
      context_window = coalesce(excluded.context_window, context_window), limits = coalesce(excluded.limits, limits)`);
  const rowid = new Map<string, number>();
  for (const u of events) {
    if (!rowid.has(u.sessionId)) rowid.set(u.sessionId, rowid.size + 1);
    upsert.run(rowid.get(u.sessionId), u.key, u.at, u.model, u.input, u.output, u.cacheRead, u.cacheWrite, u.reasoning, u.contextWindow, u.limits ? JSON.stringify(u.limits) : null);
  }
  const rows = db.prepare('SELECT * FROM usage_events ORDER BY session_rowid, key').all();
  db.close();
  return rows;
}

describe('usage events folded per batch', () => {
  it('store exactly what one upsert per event stores', () => {
    const limit = { name: 'primary', usedPercent: 40, windowMinutes: 300, resetsAt: null, note: null };
    const events = [
      usage({ at: null, model: 'a', input: 5, output: 1 }),
      usage({ sessionId: 'codex:t', key: 'k', input: 3, limits: [limit] }),
      usage({ at: '2026-01-01T00:00:00Z', model: null, input: 2, output: 9, cacheRead: 4, contextWindow: 1000 }),
      usage({ at: '2026-01-02T00:00:00Z', model: 'b', input: 7, reasoning: 2, limits: [] }),
      usage({ key: 'msg_2', output: 1 }),
      usage({ sessionId: 'codex:t', key: 'k', input: 1, contextWindow: 9, limits: null }),
    ];
    const merged = mergeUsage(events);
    expect(merged).toHaveLength(3);
    expect(storedOneByOne(merged)).toEqual(storedOneByOne(events));
    // Nothing repeated: the same array back, no copies.
    const distinct = [usage({}), usage({ key: 'msg_2' })];
    expect(mergeUsage(distinct)).toBe(distinct);
  });
});
