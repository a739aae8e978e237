/**
 * Legacy Gemini CLI sessions (≤ ~0.4x): `session-*.json`, one JSON object
 * `{sessionId, projectHash, startTime, lastUpdated, messages: […], summary?}` the CLI rewrote whole
 * on every message. There is nothing to tail: a changed file is read again whole and its session
 * delivered afresh (reset), an unchanged one is not read at all.
 */
import fs from 'node:fs';
import type { Session } from '../../../../shared/model.js';
import { errorCode, errorMessage, RecordSink, toSession, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceStatusTracker } from '../source-status.js';
import { BatchAccumulator } from '../session-batches.js';
import type { JsonValue, ReadBatch, ReadContext, SourceUnit } from '../types.js';
import type { GeminiParser } from './gemini-records.js';

/** A legacy file is held in memory whole; bigger ones are reported, not read. */
export const MAX_LEGACY_BYTES = 256 * 1024 * 1024;

interface LegacyCursor {
  v: 'gemini-json';
  dev: string;
  ino: string;
  size: number;
  mtimeMs: number;
  sessions: string[];
}

function parseCursor(value: JsonValue | null): LegacyCursor | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  return c.v === 'gemini-json' && Array.isArray(c.sessions) ? (value as unknown as LegacyCursor) : null;
}

export async function* readLegacyJson(unit: SourceUnit, ctx: ReadContext, parser: GeminiParser, status: SourceStatusTracker): AsyncGenerator<ReadBatch> {
  const prev = parseCursor(ctx.cursor);
  let st: fs.BigIntStats;
  let text: string;
  try {
    st = fs.statSync(unit.path, { bigint: true });
    if (
      prev &&
      prev.dev === st.dev.toString() &&
      prev.ino === st.ino.toString() &&
      prev.size === Number(st.size) &&
      prev.mtimeMs === Number(st.mtimeMs)
    ) {
      return;
    }
    if (Number(st.size) > MAX_LEGACY_BYTES) {
      status.error({ file: unit.path, message: `legacy session file is ${Number(st.size)} bytes (over ${MAX_LEGACY_BYTES}); not read` }, ctx);
      return;
    }
    text = fs.readFileSync(unit.path, 'utf8');
  } catch (err) {
    const gone = errorCode(err) === 'ENOENT';
    status.error({ file: unit.path, message: gone ? 'file vanished before it could be read' : `cannot read: ${errorMessage(err)}` }, ctx);
    if (gone && prev && prev.sessions.length > 0) {
      yield { sessions: [], messages: [], resetSessions: [], goneSessions: prev.sessions, cursor: ctx.cursor, bytesRead: 0 };
    }
    return;
  }
  status.unitOpened(unit.key);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Caught mid-rewrite, most likely: what was indexed stays; the next change reads it again.
    status.skippedLine();
    status.diagnostic({ file: unit.path, message: `legacy session file is not valid JSON (${errorMessage(err).slice(0, 120)}); kept what was indexed` }, ctx);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { sessionId?: unknown }).sessionId !== 'string') {
    status.diagnostic({ file: unit.path, message: 'not a Gemini CLI session (no sessionId); skipped' }, ctx);
    return;
  }
  const aggs: Record<string, SessionAgg> = {};
  const sink = new RecordSink('gemini', aggs, null);
  const state = parser.init(unit);
  parser.handle({ value: value as Record<string, unknown>, line: 1 }, state, sink);
  const acc = new BatchAccumulator();
  const sessions: Session[] = [];
  for (const id of sink.touched) {
    const agg = aggs[id]!;
    parser.finish(agg, state);
    const session = toSession('gemini', agg, unit.path, Number(st.size));
    sessions.push(session);
    acc.push({ session, messages: sink.messages.filter((m) => m.sessionId === session.id), reset: true });
  }
  acc.addBytes(Buffer.byteLength(text));
  const cursor: LegacyCursor = {
    v: 'gemini-json',
    dev: st.dev.toString(),
    ino: st.ino.toString(),
    size: Number(st.size),
    mtimeMs: Number(st.mtimeMs),
    sessions: sessions.map((s) => s.id),
  };
  // A session re-read whole replaces what a former read of this file delivered.
  const dropped = (prev?.sessions ?? []).filter((id) => !cursor.sessions.includes(id));
  acc.addGone(dropped);
  status.unitRead(unit.key, sessions.map((s) => s.id), sink.messages.length);
  do {
    const batch: ReadBatch = acc.drain();
    if (acc.isEmpty) batch.cursor = cursor as unknown as JsonValue;
    yield batch;
  } while (!acc.isEmpty);
}
