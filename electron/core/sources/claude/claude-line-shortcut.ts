/**
 * Fast path for Claude Code transcript lines the parser ignores. In a real 2.1.x transcript about
 * four fifths of the bytes are such records: `attachment` lines (skill listings, prompt snapshots,
 * environment) and `api-request-shape` / `api-request-blob` / `api-request` lines. They are
 * recognised from their raw bytes and a stand-in `{ type }` takes the place of the parsed line:
 *
 * - `{"type":"<name>",…}` with a name the parser does not read (the name is a plain token);
 * - `{"parentUuid":<uuid|null>,"isSidechain":<bool>,"attachment":{…},…}`: the attachment object is
 *   skipped by its nesting (strings and escapes honoured, nothing decoded) and only the rest of the
 *   record, a few hundred bytes, is parsed, to read its real top-level `type`.
 *
 * A line is only taken when it still looks whole (ends with `}`, valid UTF-8, no NUL, no second
 * conversation record merged into it). Trade-off, as for Codex: damage inside a skipped part that
 * leaves the nesting intact costs that line's diagnostic; the record was to be ignored anyway.
 */
import type { LineShortcut } from '../jsonl/jsonl-tail.js';
import { bytesOf, isNameByte, isOneOf, looksWhole, matchAt, skipContainer, tokenEnd } from '../jsonl/line-bytes.js';

const TYPE_FIRST = bytesOf('{"type":"');
const PARENT_FIRST = bytesOf('{"parentUuid":');
const NULL = bytesOf('null');
const SIDECHAIN = bytesOf(',"isSidechain":');
const TRUE = bytesOf('true');
const FALSE = bytesOf('false');
const ATTACHMENT = bytesOf(',"attachment":{');
const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;

/** A uuid-like token: `[0-9A-Za-z-]`. */
const isIdByte = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d;

/** Index after `{"parentUuid":<id|null>,"isSidechain":<bool>` at `from`, or -1. */
function afterEnvelope(b: Buffer, from: number, to: number): number {
  let p = from + PARENT_FIRST.length;
  if (matchAt(b, p, NULL, to)) p += NULL.length;
  else if (b[p] === QUOTE) {
    const end = tokenEnd(b, p + 1, to, isIdByte);
    if (end < 0) return -1;
    p = end + 1;
  } else return -1;
  if (!matchAt(b, p, SIDECHAIN, to)) return -1;
  p += SIDECHAIN.length;
  if (matchAt(b, p, TRUE, to)) return p + TRUE.length;
  if (matchAt(b, p, FALSE, to)) return p + FALSE.length;
  return -1;
}

/** The top-level `type` of the record's members after the attachment (`,"k":v,…}`), or null. */
function typeOfRest(b: Buffer, from: number, to: number): string | null {
  if (b[from] !== COMMA || b[to - 1] !== CLOSE_BRACE) return null;
  try {
    const rest = JSON.parse(`{${b.toString('utf8', from + 1, to)}`) as { type?: unknown };
    return typeof rest.type === 'string' ? rest.type : null;
  } catch {
    return null;
  }
}

/** `typesRead`: the record types the parser reads; every other type gets a stand-in. */
export function claudeLineShortcut(typesRead: ReadonlySet<string>): LineShortcut {
  const read = [...typesRead].map(bytesOf);
  return (b, from, to) => {
    let type: string | null;
    if (matchAt(b, from, TYPE_FIRST, to)) {
      const start = from + TYPE_FIRST.length;
      const stop = tokenEnd(b, start, to, isNameByte);
      if (stop < 0 || isOneOf(b, start, stop, read) || (b[stop + 1] !== COMMA && b[stop + 1] !== CLOSE_BRACE)) return undefined;
      if (!looksWhole(b, from, to, PARENT_FIRST)) return undefined;
      type = b.toString('latin1', start, stop);
    } else if (matchAt(b, from, PARENT_FIRST, to)) {
      const p = afterEnvelope(b, from, to);
      if (p < 0 || !matchAt(b, p, ATTACHMENT, to)) return undefined;
      const afterAttachment = skipContainer(b, p + ATTACHMENT.length - 1, to);
      if (afterAttachment < 0 || !looksWhole(b, from, to, PARENT_FIRST)) return undefined;
      type = typeOfRest(b, afterAttachment, to);
      if (type === null || typesRead.has(type)) return undefined;
    } else {
      return undefined;
    }
    return { type };
  };
}
