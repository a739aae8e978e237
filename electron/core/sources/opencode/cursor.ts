/**
 * Cursors of the OpenCode units. Rows are UPDATEd in place while a reply streams, so the SQLite
 * cursor is a high-water mark `(time_updated, ids at exactly that ms)` per table, plus the message
 * count of every delivered session (catches deleted messages and deleted sessions) and the sessions
 * planned but not yet delivered (a crash between batches loses nothing).
 */
import type { JsonValue } from '../types.js';

export interface Mark {
  /** Highest `time_updated` seen (epoch ms); -1 before the first read. */
  t: number;
  /** Row ids whose `time_updated` equals `t` (ties within one millisecond). */
  ids: string[];
}

/** 1.x tables, then the 2.x ones (absent before 2.0; a cursor without their marks reads them whole once). */
export const MARKED_TABLES = ['session', 'message', 'part', 'session_v2', 'session_message'] as const;
export type MarkedTable = (typeof MARKED_TABLES)[number];


export interface OpenCodeDbCursor {
  v: 1;
  marks: Record<MarkedTable, Mark>;
  /** session id → message rows delivered. */
  known: Record<string, number>;
  /** Sessions found changed whose delivery has not completed yet. */
  pending: string[];
  /**
   * session id → digest of the title delivered (see titleDigest). A rename in the TUI rewrites
   * `title` without bumping `time_updated`, so the marks alone never see it.
   */
  titles: Record<string, string>;
}

export interface OpenCodeJsonCursor {
  v: 1;
  /** session id → fingerprint of its session/message/part files. */
  known: Record<string, string>;
}

const EMPTY_MARK: Mark = { t: -1, ids: [] };
const emptyMarks = () => Object.fromEntries(MARKED_TABLES.map((t) => [t, { ...EMPTY_MARK }])) as Record<MarkedTable, Mark>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseMark(v: unknown): Mark {
  if (!isRecord(v) || typeof v.t !== 'number' || !Array.isArray(v.ids)) return { ...EMPTY_MARK };
  return { t: v.t, ids: v.ids.filter((x): x is string => typeof x === 'string') };
}

function parseRecord<T>(v: unknown, ok: (x: unknown) => x is T): Record<string, T> {
  const out: Record<string, T> = {};
  if (!isRecord(v)) return out;
  for (const [k, x] of Object.entries(v)) if (ok(x)) out[k] = x;
  return out;
}

const isNumber = (x: unknown): x is number => typeof x === 'number';
const isString = (x: unknown): x is string => typeof x === 'string';

/** A saved cursor, or a fresh one when there is none or it is not ours (first read). */
export function parseDbCursor(value: JsonValue | null): OpenCodeDbCursor {
  const v: unknown = value;
  if (!isRecord(v) || v.v !== 1 || !isRecord(v.marks)) return { v: 1, marks: emptyMarks(), known: {}, pending: [], titles: {} };
  const marks = v.marks;
  return {
    v: 1,
    marks: Object.fromEntries(MARKED_TABLES.map((t) => [t, parseMark(marks[t])])) as Record<MarkedTable, Mark>,
    known: parseRecord(v.known, isNumber),
    pending: Array.isArray(v.pending) ? v.pending.filter(isString) : [],
    titles: parseRecord(v.titles, isString),
  };
}

/** A short digest of a session title (FNV-1a, 32 bits): kept per session in the cursor, cheap to compute for every session at every read. */
export function titleDigest(title: string | null): string {
  if (title === null) return '-';
  let h = 0x811c9dc5;
  for (let i = 0; i < title.length; i++) {
    h ^= title.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

export function parseJsonCursor(value: JsonValue | null): OpenCodeJsonCursor {
  const v: unknown = value;
  if (!isRecord(v) || v.v !== 1) return { v: 1, known: {} };
  return { v: 1, known: parseRecord(v.known, isString) };
}

export function dbCursorJson(c: OpenCodeDbCursor): JsonValue {
  return {
    v: 1,
    marks: Object.fromEntries(MARKED_TABLES.map((t) => [t, { t: c.marks[t].t, ids: [...c.marks[t].ids] }])),
    known: { ...c.known },
    pending: [...c.pending],
    titles: { ...c.titles },
  };
}

export function jsonCursorJson(c: OpenCodeJsonCursor): JsonValue {
  return { v: 1, known: { ...c.known } };
}
