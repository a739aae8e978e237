/**
 * Holds a rendered brief to its token budget in every format. The data is cut by characters first
 * (bound-brief-data), rendered, counted; while the result is over the budget the character
 * allowance shrinks by the overshoot and the brief is rendered again. Each round tokenizes
 * O(budget) characters, and there are few rounds. Steps that shrink by the overshoot can land well
 * under the budget, and the excerpt (which takes whatever the structured sections leave) would
 * get that slack: one more round, aimed between the allowance that fits and the one that did not,
 * gives it back to the structured sections, which go by value before the excerpt.
 *
 * When even the bare skeleton (headings, header lines, ids) is larger than the budget:
 * - Markdown is cut at the budget and says so on its last line;
 * - the structured formats (delimit, govzero, envelope) cannot be cut and stay valid, so the
 *   request fails with `bad_request` naming the smallest budget that would do.
 * Either way the result never exceeds the budget (margin 0, counted with the same tokenizer).
 */
import { ApiError } from '../../../shared/contract.js';
import type { BriefData } from './brief-data.js';
import { boundBriefData } from './bound-brief-data.js';
import { countTokens, cutToTokens } from './tokens.js';

/** Characters per token of ordinary prose: the first allowance a budget buys. */
export const TYPICAL_CHARS_PER_TOKEN = 4;
const MAX_ROUNDS = 8;
/** A gap (in characters) between fitting and overshooting not worth another round. */
const REFINE_GAP = 120;

export interface Rendered {
  text: string;
  /** Set when the renderer already counted the text. */
  tokens?: number;
}

export interface FittedBrief {
  text: string;
  tokens: number;
  /** The Markdown was cut at the budget (the skeleton alone did not fit). */
  cut: boolean;
}

export function cutNote(budget: number): string {
  return `\n\n[… brief cut at the ${budget.toLocaleString('en-US')}-token budget; ask for a larger budget to see the rest]\n`;
}

export function fitBrief(data: BriefData, budget: number, render: (data: BriefData) => Rendered, overflow: { kind: 'cut' } | { kind: 'refuse'; format: string }): FittedBrief {
  let allowance = budget * TYPICAL_CHARS_PER_TOKEN;
  let last: { text: string; tokens: number } | null = null;
  /** The smallest allowance known to overshoot, and the tokens it gave. */
  let over = { allowance: Number.POSITIVE_INFINITY, tokens: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const out = render(boundBriefData(data, allowance));
    const tokens = out.tokens ?? countTokens(out.text);
    if (tokens <= budget) return refine(data, budget, render, { text: out.text, tokens, cut: false }, allowance, over);
    last = { text: out.text, tokens };
    over = { allowance, tokens };
    if (allowance === 0) break;
    // Shrink by the overshoot, in characters of this text, and by a tenth at least.
    const charsPerToken = out.text.length / tokens;
    const next = Math.floor(Math.min(allowance * 0.9, allowance - (tokens - budget) * charsPerToken * 1.1));
    // The last round renders the bare skeleton: either it fits or nothing will.
    allowance = round >= MAX_ROUNDS - 2 ? 0 : Math.max(0, next);
  }
  if (overflow.kind === 'refuse') {
    throw new ApiError(
      'bad_request',
      `The ${overflow.format} brief of this session needs at least ${last!.tokens} tokens (its fixed fields alone); the budget is ${budget}. Ask for a larger budget or the md format.`,
    );
  }
  const note = cutNote(budget);
  const text = cutToTokens(last!.text, budget - countTokens(note)) + note;
  return { text, tokens: countTokens(text), cut: true };
}

/**
 * One more try between an allowance that fits and the smallest that overshot, kept if it fits.
 * It follows the line through the two points: the fitting one counts its excerpt too, so that line
 * is flatter than the structured sections' own and the try errs on the side that fits (one more
 * render, O(budget), only for briefs whose structured sections exceed the budget).
 */
function refine(
  data: BriefData,
  budget: number,
  render: (data: BriefData) => Rendered,
  fitted: FittedBrief,
  fits: number,
  over: { allowance: number; tokens: number },
): FittedBrief {
  // Fitted at the first try (nothing overshot): the structured sections are whole.
  if (!Number.isFinite(over.allowance) || over.allowance - fits <= REFINE_GAP) return fitted;
  const slope = (over.tokens - fitted.tokens) / (over.allowance - fits);
  const aimed = slope > 0 ? Math.floor(over.allowance - (over.tokens - budget) / slope) : Math.floor((fits + over.allowance) / 2);
  const at = Math.min(over.allowance - 1, Math.max(fits + 1, aimed));
  const out = render(boundBriefData(data, at));
  const tokens = out.tokens ?? countTokens(out.text);
  return tokens <= budget ? { text: out.text, tokens, cut: false } : fitted;
}
