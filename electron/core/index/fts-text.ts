/**
 * The text FTS5 indexes for a message, and the same transform for query terms.
 *
 * The index uses FTS5's `unicode61` word tokenizer (case and diacritics folded). Words are what
 * people search for, and a word index is about 3× smaller and 2–3× faster to build than a trigram
 * one (measured on the bench corpus), which is what lets a cold index keep up with the disk. Two
 * gaps of a word tokenizer are closed here, in JS, before FTS5 sees the text:
 * - CJK has no spaces, so unicode61 would make a whole run of Japanese one token. Every CJK
 *   character is set apart as its own token, and a CJK query becomes a phrase of characters: any
 *   substring of Japanese/Chinese/Korean text is found, in order, like a trigram index finds it.
 * - Code identifiers: `snake_case` and `kebab-case` already split on punctuation; `camelCase` and
 *   `PascalCase` words are indexed whole AND their parts are appended after the text, so `Index`
 *   finds `SessionIndex` (the parts come after the text, so phrases of the text are unaffected).
 */

import { isBatonTool, withoutNestedBrief } from './baton-echo.js';

/** Only the first 4 KB (characters) of a tool output are searchable. */
export const INDEXED_TOOL_OUTPUT_CHARS = 4096;

/** Thinking is left out of search: it is noise next to what was said and done. */
export function isIndexedKind(kind: string): boolean {
  return kind !== 'thinking';
}

/** Hiragana, katakana, CJK ideographs (incl. extension A and compatibility), Hangul syllables. */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/g;
const MAYBE_CJK = /[\u3040-\ud7af\uf900-\ufaff]/;
/** A case change inside a word (`eC` in camelCase, `PS` + lower in HTTPServer): cheap to look for, and most text has none. */
const HUMP = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;
/** Every hump, in order; the word around each is found by hand (see camelWords). */
const HUMPS = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/g;
const CAMEL_PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
/** Parts appended per message at most (a minified blob must not double the index). */
const MAX_PARTS = 64;

/** What a message contributes to search, before the tokenizer transform; null when nothing. */
export function searchableText(kind: string, toolName: string | null, text: string): string | null {
  if (!isIndexedKind(kind)) return null;
  // Baton's own output: what it says was said elsewhere (see baton-echo.ts).
  if ((kind === 'tool_call' || kind === 'tool_result') && isBatonTool(toolName)) return null;
  if (kind === 'tool_call') return toolName ? `${toolName} ${text}` : text;
  if (kind === 'tool_result') return text.length > INDEXED_TOOL_OUTPUT_CHARS ? text.slice(0, INDEXED_TOOL_OUTPUT_CHARS) : text;
  return withoutNestedBrief(text);
}

function spaceCjk(text: string): string {
  return MAYBE_CJK.test(text) ? text.replace(CJK_CHAR, ' $& ') : text;
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Hands each whole ASCII word that has a hump inside to `take`, in order, until it returns false.
 * One pass of a plain regex for the humps (rare) and a scan to each one's word edges: a single
 * regex for the word (a look-behind plus a look-ahead tried at every position) was the costliest
 * step of preparing a cold index's text.
 */
function camelWords(text: string, take: (word: string) => boolean): void {
  HUMPS.lastIndex = 0;
  for (let m = HUMPS.exec(text); m; m = HUMPS.exec(text)) {
    let start = m.index;
    while (start > 0 && isAsciiAlnum(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isAsciiAlnum(text.charCodeAt(end))) end++;
    if (!take(text.slice(start, end))) break;
    HUMPS.lastIndex = end;
  }
}

/** The string handed to FTS5 for a message's searchable text. */
export function indexForm(text: string): string {
  let out = spaceCjk(text);
  if (!HUMP.test(text)) return out;
  const parts = new Set<string>();
  camelWords(text, (word) => {
    for (const part of word.match(CAMEL_PART) ?? []) parts.add(part.toLowerCase());
    return parts.size < MAX_PARTS;
  });
  if (parts.size) out += `\n${[...parts].slice(0, MAX_PARTS).join(' ')}`;
  return out;
}

/** What the writer hands FTS5 for a message as stored (null: not searchable). Pure, so the read-ahead worker can run it. */
export function messageIndexForm(kind: string, toolName: string | null, storedText: string): string | null {
  const text = searchableText(kind, toolName, storedText);
  return text === null ? null : indexForm(text);
}

/** The string FTS5 tokenizes for one query term (a quoted FTS5 string = a phrase of its tokens). */
export function queryForm(term: string): string {
  return spaceCjk(term);
}

/** Whether a term has anything the tokenizer keeps (letters or digits); `--` or `*` do not. */
export function hasTokens(term: string): boolean {
  return /[\p{L}\p{N}]/u.test(term);
}
