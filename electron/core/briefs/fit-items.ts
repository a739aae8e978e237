/**
 * Character-level fitting, the cheap first cut of every brief budget: strings clipped at a word
 * boundary, lists cut to an allowance keeping the items that matter most, and allowances shared
 * between sections so small sections stay whole. Counting tokens only happens on what is left.
 */

/** A run of non-space characters longer than this is no secret format the redactor knows. */
const LONGEST_WORD = 2000;

/** Marks the end of a clipped text. */
export const CLIP_MARK = ' […]';

/**
 * The first `max` characters of `text`, cut before a partial word: a secret cut in half would no
 * longer look like one to the redactor, so a clipped token is dropped whole, never shown in part.
 */
export function clipChars(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= CLIP_MARK.length) return '';
  const end = max - CLIP_MARK.length;
  // Back off to the last whitespace; only a run longer than any credential is cut inside.
  let cut = end;
  while (cut > 0 && end - cut < LONGEST_WORD && !/\s/.test(text[cut]!)) cut--;
  if (end - cut >= LONGEST_WORD) {
    cut = end;
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--; // never half a surrogate pair
  }
  return `${text.slice(0, cut).trimEnd()}${CLIP_MARK}`;
}

/** "… 1,234 more decisions not shown": the line every format prints for items cut to the budget. */
export function moreLine(count: number, noun: string): string {
  // Nouns are given in the plural ("decisions", "next steps"): one is "1 more decision".
  const said = count === 1 ? noun.replace(/s$/, '') : noun;
  return `… ${count.toLocaleString('en-US')} more ${said} not shown`;
}

/**
 * Weighted max-min fair shares of `total` among sections of the given sizes: a section smaller than
 * its share keeps all of it, and what it leaves over goes to the larger ones in proportion to
 * their weights (1 each unless given).
 */
export function shareAllowance(sizes: number[], total: number, weights: number[] = sizes.map(() => 1)): number[] {
  const out = sizes.map(() => 0);
  let left = Math.max(0, total);
  const w = (i: number) => Math.max(1e-9, weights[i] ?? 1);
  // Sections in the order they fill up: by size per unit of weight.
  let open = sizes.map((_, i) => i).sort((a, b) => sizes[a]! / w(a) - sizes[b]! / w(b));
  while (open.length && left > 0) {
    const weight = open.reduce((n, i) => n + w(i), 0);
    const smallest = open[0]!;
    if (sizes[smallest]! <= Math.floor((left * w(smallest)) / weight)) {
      out[smallest] = sizes[smallest]!;
      left -= sizes[smallest]!;
      open = open.slice(1);
      continue;
    }
    for (const i of open) out[i] = Math.floor((left * w(i)) / weight);
    break;
  }
  return out;
}

export interface FitListOptions<T> {
  /** Characters this list may take in all. */
  allowance: number;
  /** Characters one item may take, so one huge item cannot take the list's whole allowance. */
  itemMax: number;
  text: (item: T) => string;
  withText: (item: T, text: string) => T;
  /** Characters an item costs besides its text (bullet, reference). */
  overhead?: number;
  /** Higher first: which items are kept when not all fit (ties: the later, newer item). */
  priority?: (item: T, index: number) => number;
}

/** Items that fit the allowance, in their original order, and how many were left out. */
export function fitList<T>(items: T[], opts: FitListOptions<T>): { kept: T[]; omitted: number } {
  const overhead = opts.overhead ?? 3;
  // A list that fits keeps every item whole: the per-item cap only shares a list that does not.
  if (items.reduce((n, item) => n + opts.text(item).length + overhead, 0) <= opts.allowance) return { kept: items, omitted: 0 };
  const order = items.map((_, i) => i);
  const priority = opts.priority;
  if (priority) order.sort((a, b) => priority(items[b]!, b) - priority(items[a]!, a) || b - a);
  else order.reverse(); // newest (last) first
  const chosen = new Map<number, T>();
  let left = opts.allowance;
  // Anything shorter is not worth showing as a clipped fragment.
  const MIN_ITEM = 40;
  for (const i of order) {
    const item = items[i]!;
    const text = opts.text(item);
    const room = Math.min(opts.itemMax, left);
    if (text.length <= room) {
      chosen.set(i, item);
      left -= text.length + overhead;
    } else if (room >= MIN_ITEM) {
      chosen.set(i, opts.withText(item, clipChars(text, room)));
      left -= room + overhead;
    } else break;
    if (left < MIN_ITEM) break;
  }
  const kept = [...chosen.keys()].sort((a, b) => a - b).map((i) => chosen.get(i)!);
  return { kept, omitted: items.length - kept.length };
}
