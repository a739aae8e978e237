/** Token counting for brief budgets (o200k_base via gpt-tokenizer: close enough for every target). */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';
import { TOKEN_TABLE_FILE, TokenTable } from './token-table.js';

type Tokenizer = typeof GptTokenizer;
let tokenizer: Tokenizer | null = null;

/**
 * Loaded on the first count, not at import: building the o200k encoder costs ~125 ms plus the
 * garbage collection after it, which every command importing the core would otherwise pay
 * (`baton list` counts no tokens). A synchronous require keeps the counting functions synchronous.
 */
function gpt(): Tokenizer {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

/**
 * Characters one token covers at most in practice (English ~4, code ~3; only long runs of one
 * character pack more). Text is cut to budget × this before it is tokenized, so counting costs
 * O(budget) whatever the input size.
 */
export const MAX_CHARS_PER_TOKEN = 8;

let charsTokenized = 0;

/**
 * Characters passed to the tokenizer since the process started: lets tests and benchmarks check
 * that the work of a brief is bounded by its budget, not by the size of what it summarizes.
 */
export function tokenizedChars(): number {
  return charsTokenized;
}

let table: TokenTable | null | undefined;

/**
 * The build's token table beside this code (bin/cli-bundle.mjs writes it next to the bundle), or
 * null (sources, tsc's output): then gpt-tokenizer counts, with the same results.
 */
function tokenTable(): TokenTable | null {
  if (table === undefined) {
    try {
      table = new TokenTable(fs.readFileSync(new URL(`./${TOKEN_TABLE_FILE}`, import.meta.url)));
    } catch {
      table = null;
    }
  }
  return table;
}

export function countTokens(text: string): number {
  charsTokenized += text.length;
  if (!text) return 0;
  // A special token's text ("<|endoftext|>"…) is gpt-tokenizer's to refuse, as it always has.
  const fast = text.includes('<|') ? null : tokenTable();
  return fast ? fast.count(text) : gpt().countTokens(text);
}

/** The longest prefix of `text` of at most `max` tokens (a prefix of whole tokens). */
export function cutToTokens(text: string, max: number): string {
  if (max <= 0) return '';
  const candidate = text.slice(0, max * MAX_CHARS_PER_TOKEN);
  charsTokenized += candidate.length;
  const tokens = gpt().encode(candidate);
  if (tokens.length <= max && candidate.length === text.length) return text;
  let keep = Math.min(max, tokens.length);
  // Decoding a cut inside a multi-byte character gives U+FFFD; drop it rather than show it.
  let out = gpt().decode(tokens.slice(0, keep)).replace(/\uFFFD+$/, '');
  // Re-encoding a prefix can merge differently: shrink until it really fits.
  while (keep > 0 && countTokens(out) > max) out = gpt().decode(tokens.slice(0, --keep)).replace(/\uFFFD+$/, '');
  return out;
}
