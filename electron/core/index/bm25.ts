/**
 * Okapi BM25 as FTS5's bm25() computes it (k1 = 1.2, b = 0.75, IDF floored at 1e-6), evaluated in
 * JS on the few candidate messages search keeps. FTS5's own bm25() first counts every message that
 * contains each phrase (a full pass over the phrase's doclist: 30–60 ms per query on 1 M messages);
 * here that document frequency is an estimate (see fts-stats.ts), and the term frequencies and
 * lengths come from the candidate texts themselves.
 *
 * Phrases are counted as substrings of the folded text; a message's length in tokens is FTS5's own
 * count (its docsize record), read with the candidate.
 */

const K1 = 1.2;
const B = 0.75;

/** Case- and diacritic-insensitive form, like the index's unicode61 `remove_diacritics 2`. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  // Decomposing is the slow part: only Latin letters with diacritics (or loose combining marks) need it.
  if (!/[\u00c0-\u024f\u1e00-\u1eff]|\p{M}/u.test(lower)) return lower;
  return lower.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Occurrences of `needle` in `haystack`, overlapping ones included (as FTS5 phrase instances are). */
export function countOccurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

export function idf(totalDocs: number, docFreq: number): number {
  const v = Math.log((totalDocs - docFreq + 0.5) / (docFreq + 0.5));
  return v > 0 ? v : 1e-6;
}

export interface Bm25Phrase {
  /** The phrase, already folded with foldText. */
  folded: string;
  idf: number;
}

/**
 * Relevance of one message (higher is better; FTS5's bm25() returns the same number negated).
 * `folded` is the message text passed through foldText.
 */
export function bm25Score(folded: string, docLength: number, phrases: readonly Bm25Phrase[], avgDocLength: number): number {
  const lengthNorm = K1 * (1 - B + (B * docLength) / Math.max(1, avgDocLength));
  let score = 0;
  for (const p of phrases) {
    const tf = countOccurrences(folded, p.folded);
    if (tf > 0) score += (p.idf * tf * (K1 + 1)) / (tf + lengthNorm);
  }
  return score;
}
