/**
 * Cursor of one Hermes `state.db`: the highest message id seen (AUTOINCREMENT, so `id > maxId`
 * finds every insert), and per delivered session a fingerprint of its session row (title, ended_at,
 * counters, last_activity_at, rewind_count… whichever columns the schema has) plus what was
 * delivered: row count and last row id (to tell an append from a rewrite) and the next seq.
 */
import type { JsonValue } from '../types.js';

export interface HermesKnown {
  fp: string;
  rows: number;
  lastId: number;
  seq: number;
}

export interface HermesCursor {
  v: 1;
  maxId: number;
  known: Record<string, HermesKnown>;
  /** Sessions found changed whose delivery has not completed yet. */
  pending: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseHermesCursor(value: JsonValue | null): HermesCursor {
  const v: unknown = value;
  if (!isRecord(v) || v.v !== 1 || typeof v.maxId !== 'number') return { v: 1, maxId: 0, known: {}, pending: [] };
  const known: Record<string, HermesKnown> = {};
  if (isRecord(v.known)) {
    for (const [id, k] of Object.entries(v.known)) {
      if (Array.isArray(k) && typeof k[0] === 'string' && typeof k[1] === 'number' && typeof k[2] === 'number' && typeof k[3] === 'number') {
        known[id] = { fp: k[0], rows: k[1], lastId: k[2], seq: k[3] };
      }
    }
  }
  const pending = Array.isArray(v.pending) ? v.pending.filter((x): x is string => typeof x === 'string') : [];
  return { v: 1, maxId: v.maxId, known, pending };
}

/** Compact JSON form: known entries as tuples [fp, rows, lastId, seq]. */
export function hermesCursorJson(c: HermesCursor): JsonValue {
  const known: Record<string, JsonValue> = {};
  for (const [id, k] of Object.entries(c.known)) known[id] = [k.fp, k.rows, k.lastId, k.seq];
  return { v: 1, maxId: c.maxId, known, pending: [...c.pending] };
}
