/**
 * How many terminal columns text takes: East Asian wide and fullwidth characters and emoji take
 * two, combining marks and joiners none. Counted per grapheme, so 👍🏽 or 🇯🇵 is one two-column cell.
 */
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]|\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
// Variation selectors and zero-width (non-)joiners are Mn / Cf.
const ZERO = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;
const CONTROL = /^[\u0000-\u001F\u007F-\u009F]+$/;

// Made on first use: creating it loads ICU's break rules, ~10 ms that `baton --help` and every
// command importing this without measuring anything would pay.
let graphemes: Intl.Segmenter | null = null;
function segmenter(): Intl.Segmenter {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return graphemes;
}

function graphemeWidth(cluster: string): number {
  if (ZERO.test(cluster) || CONTROL.test(cluster)) return 0;
  return WIDE.test(cluster) ? 2 : 1;
}

/** Printable ASCII only: one column per character, no segmenting needed (most table cells). */
const PLAIN = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter().segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` cut to at most `max` columns, with "…" when something was cut; never splits a grapheme. */
export function truncateToWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (PLAIN.test(text)) return `${text.slice(0, Math.max(0, max - 1))}…`;
  let out = '';
  let width = 0;
  for (const { segment } of segmenter().segment(text)) {
    const w = graphemeWidth(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
