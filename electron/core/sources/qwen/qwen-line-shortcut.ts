/**
 * Fast path for Qwen Code's bookkeeping lines: `system` records with subtype `ui_telemetry`,
 * `attribution_snapshot` or `file_history_snapshot` are about half the lines of a chat file, and the
 * parser takes nothing from them but a timestamp. They are recognised from the raw bytes of the
 * envelope Qwen writes first (`createBaseRecord`):
 *
 *   {"uuid":"…","parentUuid":"…"|null,"sessionId":"…","timestamp":"…","type":"system","provenance":"system",
 *    "cwd":"…","version":"…"[,"gitBranch":"…"],"subtype":"<name>",…}
 *
 * and `{ uuid, type, subtype, timestamp }` stands in for the parsed line. Ids, timestamp, version and
 * subtype are plain tokens; cwd and branch are skipped as JSON strings (escapes honoured). A line is
 * only taken when it still looks whole (ends with `}`, valid UTF-8, no NUL, no second record merged
 * into it); every other line is parsed as usual.
 */
import type { LineShortcut } from '../jsonl/jsonl-tail.js';
import { bytesOf, isNameByte, isOneOf, looksWhole, matchAt, stringEnd, tokenEnd } from '../jsonl/line-bytes.js';

const RECORD_START = bytesOf('{"uuid":"');
const PARENT = bytesOf(',"parentUuid":');
const NULL = bytesOf('null');
const SESSION = bytesOf(',"sessionId":"');
const TIMESTAMP = bytesOf(',"timestamp":"');
const SYSTEM_CWD = bytesOf(',"type":"system","provenance":"system","cwd":"');
const VERSION = bytesOf(',"version":"');
const BRANCH = bytesOf(',"gitBranch":"');
const SUBTYPE = bytesOf(',"subtype":"');
const API_ERROR = bytesOf('"qwen-code.api_error"');
const QUOTE = 0x22;

/** Ids and timestamps: `[0-9A-Za-z:.+_-]`. */
const isTokenByte = (c: number) => (c >= 0x30 && c <= 0x3a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x5f;

/** Index after `"<token>"` whose content starts at `at` (the opening quote already matched), or -1. */
function afterToken(b: Buffer, at: number, to: number): number {
  const end = tokenEnd(b, at, to, isTokenByte);
  return end < 0 ? -1 : end + 1;
}

/** `silent`: the system subtypes the parser takes nothing from but a timestamp. */
export function qwenLineShortcut(silent: ReadonlySet<string>): LineShortcut {
  const names = [...silent].map(bytesOf);
  return (b, from, to) => {
    if (!matchAt(b, from, RECORD_START, to)) return undefined;
    const uuidStart = from + RECORD_START.length;
    let p = afterToken(b, uuidStart, to);
    if (p < 0 || !matchAt(b, p, PARENT, to)) return undefined;
    const uuidStop = p - 1;
    p += PARENT.length;
    if (matchAt(b, p, NULL, to)) p += NULL.length;
    else if (b[p] === QUOTE) p = afterToken(b, p + 1, to);
    else return undefined;
    if (p < 0 || !matchAt(b, p, SESSION, to)) return undefined;
    p = afterToken(b, p + SESSION.length, to);
    if (p < 0 || !matchAt(b, p, TIMESTAMP, to)) return undefined;
    const stampStart = p + TIMESTAMP.length;
    p = afterToken(b, stampStart, to);
    if (p < 0 || !matchAt(b, p, SYSTEM_CWD, to)) return undefined;
    const stampStop = p - 1;
    p = stringEnd(b, p + SYSTEM_CWD.length, to);
    if (p < 0 || !matchAt(b, p + 1, VERSION, to)) return undefined;
    p = afterToken(b, p + 1 + VERSION.length, to);
    if (p >= 0 && matchAt(b, p, BRANCH, to)) {
      const end = stringEnd(b, p + BRANCH.length, to);
      p = end < 0 ? -1 : end + 1;
    }
    if (p < 0 || !matchAt(b, p, SUBTYPE, to)) return undefined;
    const nameStart = p + SUBTYPE.length;
    const nameStop = tokenEnd(b, nameStart, to, isNameByte);
    if (nameStop < 0 || !isOneOf(b, nameStart, nameStop, names)) return undefined;
    if (!looksWhole(b, from, to, RECORD_START)) return undefined;
    // A failed request's telemetry (a 429 is a limit hit) is read in full.
    const apiError = b.indexOf(API_ERROR, nameStop);
    if (apiError >= 0 && apiError < to) return undefined;
    return {
      uuid: b.toString('latin1', uuidStart, uuidStop),
      type: 'system',
      subtype: b.toString('latin1', nameStart, nameStop),
      timestamp: b.toString('latin1', stampStart, stampStop),
    };
  };
}
