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
import type { LineShortcut } from '../jsonl/jsonl-tail.js';
import { bytesOf, isOneOf, looksWhole, matchAt, tokenEnd } from '../jsonl/line-bytes.js';

const RECORD_START = bytesOf('{"timestamp":"');
const ORDINAL = bytesOf('"ordinal":');
const TYPE = bytesOf('"type":"');
const PAYLOAD = bytesOf(',"payload":{');
const COMMA = 0x2c;
const MINUS = 0x2d;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** Codex type names: `[a-z0-9_]`. */
const isNameByte = (c: number) => (c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x5f;
/** A timestamp: `[0-9A-Za-z:.+-]`. */
const isStampByte = (c: number) => (c >= 0x30 && c <= 0x3a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2e || c === 0x2b || c === MINUS;
const nameEnd = (b: Buffer, at: number, to: number) => tokenEnd(b, at, to, isNameByte);
const stampEnd = (b: Buffer, at: number, to: number) => tokenEnd(b, at, to, isStampByte);

const EVENT_MSG = bytesOf('event_msg');

/**
 * `recordTypesRead`: top-level types the parser handles beyond a timestamp; `eventTypesRead`: the
 * same for `event_msg` payload types. Everything else gets a stand-in.
 */
export function codexLineShortcut(recordTypesRead: ReadonlySet<string>, eventTypesRead: ReadonlySet<string>): LineShortcut {
  const records = [...recordTypesRead].filter((t) => t !== 'event_msg').map(bytesOf);
  const events = [...eventTypesRead].map(bytesOf);
  return (b, from, to) => {
    if (!matchAt(b, from, RECORD_START, to)) return undefined;
    const stampStart = from + RECORD_START.length;
    const stampStop = stampEnd(b, stampStart, to);
    if (stampStop < 0 || b[stampStop + 1] !== COMMA) return undefined;
    let p = stampStop + 2;
    if (matchAt(b, p, ORDINAL, to)) {
      p += ORDINAL.length;
      if (b[p] === MINUS) p++;
      const digits = p;
      while (p < to && isDigit(b[p]!)) p++;
      if (p === digits || b[p] !== COMMA) return undefined;
      p++;
    }
    if (!matchAt(b, p, TYPE, to)) return undefined;
    const typeStart = p + TYPE.length;
    const typeStop = nameEnd(b, typeStart, to);
    if (typeStop < 0 || !matchAt(b, typeStop + 1, PAYLOAD, to)) return undefined;
    p = typeStop + 1 + PAYLOAD.length;
    let eventStart = -1;
    let eventStop = -1;
    if (typeStop - typeStart === EVENT_MSG.length && matchAt(b, typeStart, EVENT_MSG, to)) {
      if (!matchAt(b, p, TYPE, to)) return undefined;
      eventStart = p + TYPE.length;
      eventStop = nameEnd(b, eventStart, to);
      if (eventStop < 0 || isOneOf(b, eventStart, eventStop, events)) return undefined;
    } else if (isOneOf(b, typeStart, typeStop, records)) {
      return undefined;
    }
    if (!looksWhole(b, from, to, RECORD_START)) return undefined;
    const timestamp = b.toString('latin1', stampStart, stampStop);
    const type = b.toString('latin1', typeStart, typeStop);
    return { timestamp, type, payload: eventStart < 0 ? {} : { type: b.toString('latin1', eventStart, eventStop) } };
  };
}
