/**
 * What a model's tokens cost, in USD per million tokens, and how large its context window is.
 *
 * Table date: 2026-11-25. Source: the vendors' published list prices (Anthropic, OpenAI, Google) for
 * standard (non-batch, ≤ 200k-token prompt) requests; gpt-5.5 is the price ccusage 20.0.24 applies
 * to the fixture sessions (checked against its `costUSD`). A model missing here costs `null`, never
 * 0; the `modelPricing` setting adds models or overrides these (same fields).
 */
export interface ModelPrice {
  input: number;
  output: number;
  /** Reading a cached prompt prefix. */
  cacheRead: number;
  /** Writing the prompt cache (Anthropic charges it; OpenAI/Google do not). */
  cacheWrite: number;
  /** Tokens of prompt the model accepts. */
  contextWindow: number | null;
}

export type PriceOverrides = Record<string, Partial<ModelPrice> & { input: number; output: number }>;

export const PRICING_DATE = '2026-11-25';

/** Keys are normalized model names (see normalizeModel); the longest matching prefix wins. */
const TABLE: Record<string, ModelPrice> = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, contextWindow: 200_000 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, contextWindow: 200_000 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, contextWindow: 200_000 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, contextWindow: 200_000 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, contextWindow: 200_000 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, contextWindow: 200_000 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25, contextWindow: 200_000 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1, contextWindow: 200_000 },
  'gpt-5.5': { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0, contextWindow: 272_000 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0, contextWindow: 272_000 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0, contextWindow: 272_000 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0, contextWindow: 272_000 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0, contextWindow: 1_047_576 },
  o3: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0, contextWindow: 200_000 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0, contextWindow: 200_000 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0, contextWindow: 1_048_576 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0, contextWindow: 1_048_576 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0, contextWindow: 1_048_576 },
  'gemini-3-pro': { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0, contextWindow: 1_048_576 },
};

/** Context windows by model family, for models the table has no price for. */
const FAMILY_WINDOWS: [string, number][] = [
  ['claude', 200_000],
  ['gpt-5', 272_000],
  ['gemini', 1_048_576],
  ['qwen3-coder', 262_144],
];

/**
 * `anthropic/claude-sonnet-4.5` → `claude-sonnet-4-5`; `claude-sonnet-4-5-20250929` →
 * `claude-sonnet-4-5`: provider prefixes and date suffixes go, Claude's dotted versions are dashed.
 * Factory Droid names a bring-your-own model `custom:<model>`: the prefix goes too.
 */
export function normalizeModel(model: string): string {
  let m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  m = m.replace(/^custom:/, '').replace(/^\[[^\]]*\]\s*/, '').replace(/-\d{8}$/, '').replace(/@.*$/, '');
  if (m.startsWith('claude')) m = m.replace(/(\d)\.(\d)/g, '$1-$2');
  return m;
}

function lookup(model: string, table: Record<string, Partial<ModelPrice>>): [string, Partial<ModelPrice>] | null {
  const norm = normalizeModel(model);
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    const k = normalizeModel(key);
    if ((norm === k || norm.startsWith(`${k}-`) || norm.startsWith(`${k}.`)) && (best === null || k.length > normalizeModel(best).length)) best = key;
  }
  return best === null ? null : [best, table[best]!];
}

export class Pricing {
  /**
   * Prices by model name as recorded. A usage report prices every request (~100k of a handful of
   * models), and matching a name against the table normalizes every key: most of a report's time.
   */
  private readonly known = new Map<string, Readonly<ModelPrice> | null>();

  constructor(private readonly overrides: PriceOverrides = {}) {}

  /** The price of `model`, the user's override first; null when neither knows it. */
  priceOf(model: string | null): Readonly<ModelPrice> | null {
    if (!model) return null;
    let price = this.known.get(model);
    if (price === undefined) {
      price = this.resolve(model);
      this.known.set(model, price && Object.freeze(price));
    }
    return price;
  }

  private resolve(model: string): ModelPrice | null {
    const own = lookup(model, this.overrides);
    const base = lookup(model, TABLE);
    if (!own && !base) return null;
    const b = (base?.[1] ?? {}) as Partial<ModelPrice>;
    const o = own?.[1] ?? {};
    const merged = { ...b, ...o };
    if (typeof merged.input !== 'number' || typeof merged.output !== 'number') return null;
    return { input: merged.input, output: merged.output, cacheRead: merged.cacheRead ?? 0, cacheWrite: merged.cacheWrite ?? 0, contextWindow: merged.contextWindow ?? null };
  }

  /** USD for these tokens of `model`, or null for a model without a price. Reasoning is part of output. */
  costOf(model: string | null, t: { input: number; output: number; cacheRead: number; cacheWrite: number }): number | null {
    const p = this.priceOf(model);
    if (!p) return null;
    return (t.input * p.input + t.output * p.output + t.cacheRead * p.cacheRead + t.cacheWrite * p.cacheWrite) / 1e6;
  }

  /** The model's context window: its price entry's, else its family's (a new Claude is still 200k). */
  contextWindowOf(model: string | null): number | null {
    const own = this.priceOf(model)?.contextWindow;
    if (own) return own;
    if (!model) return null;
    const norm = normalizeModel(model);
    for (const [prefix, window] of FAMILY_WINDOWS) if (norm.startsWith(prefix)) return window;
    return null;
  }
}
