/**
 * Fast path for Codex rollout lines the parser takes nothing but a timestamp from (item_completed,
 * task_started, thread_settings_applied, world_state, … — about a third of a rollout's bytes).
 * The envelope `{"timestamp":"…",["ordinal":N,]"type":"…","payload":{["type":"…"` is read from
 * the raw bytes and stands in for the parsed line, so the line is neither decoded nor JSON-parsed.
 *
 * Only plain tokens are taken (timestamp and type names without escapes, so the bytes are the
 * decoded string), and a line is only taken when it still looks whole: it ends with `}`, is valid
 * UTF-8, holds no NUL and no second record start (a torn write merged with the next record). Any
 * other line — including every kind the parser reads — is parsed as usual.
 */
import { isUtf8 } from 'node:buffer';
import type { LineShortcut } from '../jsonl-tail.js';

const bytesOf = (s: string) => Buffer.from(s, 'latin1');
const RECORD_START = bytesOf('{"timestamp":"');
const ORDINAL = bytesOf('"ordinal":');
const TYPE = bytesOf('"type":"');
const PAYLOAD = bytesOf(',"payload":{');
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const CLOSE = 0x7d;
const MAX_TOKEN = 64;

function matchAt(b: Buffer, at: number, lit: Buffer, to: number): boolean {
  if (at + lit.length > to) return false;
  for (let i = 0; i < lit.length; i++) if (b[at + i] !== lit[i]) return false;
  return true;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** Type names: [a-z0-9_]. */
const isNameByte = (c: number) => (c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x5f;
/** Timestamps: [0-9A-Za-z:.+-]. */
const isStampByte = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x3a || c === 0x2e || c === 0x2b || c === MINUS;

/** Index of the `"` closing a run of `ok` bytes starting at `at`, or -1. */
function tokenEnd(b: Buffer, at: number, to: number, ok: (c: number) => boolean): number {
  let p = at;
  const limit = Math.min(to, at + MAX_TOKEN);
  while (p < limit && ok(b[p]!)) p++;
  return p > at && p < to && b[p] === QUOTE ? p : -1;
}

/**
 * `recordTypesRead`: top-level types the parser handles beyond a timestamp; `eventTypesRead`: the
 * same for `event_msg` payload types. Everything else gets a stand-in.
 */
export function codexLineShortcut(recordTypesRead: ReadonlySet<string>, eventTypesRead: ReadonlySet<string>): LineShortcut {
  return (b, from, to) => {
    if (!matchAt(b, from, RECORD_START, to)) return undefined;
    let p = from + RECORD_START.length;
    const stampEnd = tokenEnd(b, p, to, isStampByte);
    if (stampEnd < 0 || b[stampEnd + 1] !== COMMA) return undefined;
    const timestamp = b.toString('latin1', p, stampEnd);
    p = stampEnd + 2;
    if (matchAt(b, p, ORDINAL, to)) {
      p += ORDINAL.length;
      if (b[p] === MINUS) p++;
      const digits = p;
      while (p < to && isDigit(b[p]!)) p++;
      if (p === digits || b[p] !== COMMA) return undefined;
      p++;
    }
    if (!matchAt(b, p, TYPE, to)) return undefined;
    p += TYPE.length;
    const typeEnd = tokenEnd(b, p, to, isNameByte);
    if (typeEnd < 0) return undefined;
    const type = b.toString('latin1', p, typeEnd);
    p = typeEnd + 1;
    if (!matchAt(b, p, PAYLOAD, to)) return undefined;
    p += PAYLOAD.length;
    let standIn: Record<string, unknown>;
    if (type === 'event_msg') {
      if (!matchAt(b, p, TYPE, to)) return undefined;
      p += TYPE.length;
      const eventEnd = tokenEnd(b, p, to, isNameByte);
      if (eventEnd < 0) return undefined;
      const event = b.toString('latin1', p, eventEnd);
      if (eventTypesRead.has(event)) return undefined;
      standIn = { timestamp, type, payload: { type: event } };
    } else if (!recordTypesRead.has(type)) {
      standIn = { timestamp, type, payload: {} };
    } else {
      return undefined;
    }
    // Still looks like one whole record (cheap byte scans, no parse).
    if (b[to - 1] !== CLOSE) return undefined;
    const line = b.subarray(from, to);
    if (line.indexOf(0) !== -1 || line.indexOf(RECORD_START, 1) !== -1 || !isUtf8(line)) return undefined;
    return standIn;
  };
}
