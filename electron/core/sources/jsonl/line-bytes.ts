/**
 * Byte-level helpers for the JSONL line shortcuts (Claude, Codex): they recognise, from a line's raw
 * bytes, records the parser would ignore, so such a line is neither decoded nor JSON-parsed.
 * Everything here reads bytes in place; nothing is decoded or allocated per line.
 */
import { isUtf8 } from 'node:buffer';

export const bytesOf = (s: string): Buffer => Buffer.from(s, 'latin1');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const MAX_TOKEN = 64;

export function matchAt(b: Buffer, at: number, lit: Buffer, to: number): boolean {
  if (at + lit.length > to) return false;
  for (let i = 0; i < lit.length; i++) if (b[at + i] !== lit[i]) return false;
  return true;
}

/** Whether b[from, to) is one of `names` (compared as bytes, nothing decoded). */
export function isOneOf(b: Buffer, from: number, to: number, names: readonly Buffer[]): boolean {
  for (const name of names) if (name.length === to - from && matchAt(b, from, name, to)) return true;
  return false;
}

/**
 * Index of the `"` closing a plain token starting at `at` (at most 64 bytes, each accepted by
 * `ok`), or -1. Plain tokens hold no escapes, so their bytes are the decoded string.
 */
export function tokenEnd(b: Buffer, at: number, to: number, ok: (c: number) => boolean): number {
  const limit = Math.min(to, at + MAX_TOKEN);
  let p = at;
  while (p < limit && ok(b[p]!)) p++;
  return p > at && p < to && b[p] === QUOTE ? p : -1;
}

/** A record type name: `[a-z0-9_-]`. */
export const isNameByte = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;

/** Index of the `"` closing the JSON string whose content starts at `at` (escapes skipped), or -1. */
export function stringEnd(b: Buffer, at: number, to: number): number {
  let p = at;
  while (p < to && b[p] !== QUOTE) p += b[p] === BACKSLASH ? 2 : 1;
  return p < to ? p : -1;
}

/**
 * Index just past the JSON object or array starting at b[at] (`{` or `[`), or -1 when it does not
 * close before `to`. Strings are skipped with their escapes; nothing is validated beyond nesting,
 * which is enough to find where a well-formed value ends (the callers then check what follows).
 */
export function skipContainer(b: Buffer, at: number, to: number): number {
  let depth = 0;
  let p = at;
  while (p < to) {
    const c = b[p]!;
    if (c === QUOTE) {
      p = stringEnd(b, p + 1, to);
      if (p < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
    } else if (c === CLOSE_BRACE || c === 0x5d) {
      if (--depth === 0) return p + 1;
      if (depth < 0) return -1;
    }
    p++;
  }
  return -1;
}

/**
 * Whether b[from, to) still looks like one whole record, with cheap byte scans and no parse: it ends
 * with `}`, holds no NUL, no second `recordStart` (a torn write merged with the next record) and is
 * valid UTF-8. A line failing this is parsed as usual, so its damage is reported.
 */
export function looksWhole(b: Buffer, from: number, to: number, recordStart: Buffer): boolean {
  if (b[to - 1] !== CLOSE_BRACE) return false;
  const line = b.subarray(from, to);
  return line.indexOf(0) === -1 && line.indexOf(recordStart, 1) === -1 && isUtf8(line);
}
