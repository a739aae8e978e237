/**
 * Fast path for Gemini CLI's `{"$set":{"messages":[…]…}}` lines: a `--resume` replay of the whole
 * history or a `/compress` rewrite, often the biggest lines of a file, and never read for turns
 * (the top-level records are the transcript). The array is skipped byte-wise and only what follows
 * it (`,"lastUpdated":"…"}}`) is parsed; the stand-in says how many bytes were replayed.
 */
import type { LineShortcut } from '../jsonl/jsonl-tail.js';
import { bytesOf, matchAt, skipContainer } from '../jsonl/line-bytes.js';

const REPLAY_START = bytesOf('{"$set":{"messages":[');
const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;

export const geminiLineShortcut: LineShortcut = (b, from, to) => {
  if (!matchAt(b, from, REPLAY_START, to)) return undefined;
  const arrayStart = from + REPLAY_START.length - 1;
  const arrayEnd = skipContainer(b, arrayStart, to);
  if (arrayEnd < 0) return undefined; // torn: parse as usual so the damage is reported
  let rest: Record<string, unknown> = {};
  if (b[arrayEnd] === COMMA) {
    try {
      const parsed: unknown = JSON.parse(`{${b.toString('utf8', arrayEnd + 1, to - 1)}`);
      if (typeof parsed !== 'object' || parsed === null) return undefined;
      rest = parsed as Record<string, unknown>;
    } catch {
      return undefined;
    }
  } else if (!(arrayEnd + 2 === to && b[arrayEnd] === CLOSE_BRACE && b[arrayEnd + 1] === CLOSE_BRACE)) {
    return undefined;
  }
  return { $set: { ...rest, messages: true }, replayBytes: arrayEnd - arrayStart };
};
