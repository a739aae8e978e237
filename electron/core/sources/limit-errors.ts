/**
 * What an API error an agent recorded means: a limit (usage window, rate, quota), an overloaded
 * server, or something else. Structured fields (HTTP status, the provider's error type or code)
 * decide first; the text is the fallback for builds that record only a message.
 */
import type { ApiErrorClass, LimitKind } from '../../../shared/limits.js';
import type { UsageLimit } from '../../../shared/model.js';

export interface ApiErrorFacts {
  status?: number | null;
  /** The provider's error type or code (`rate_limit_error`, `usage_limit_reached`, `RESOURCE_EXHAUSTED`, Claude's `rate_limit`). */
  type?: string | null;
  code?: string | null;
  text?: string | null;
}

const OVERLOADED = /overloaded/i;
const USAGE = /usage[_ ]limit|hit your (?:usage )?limit|limit reached\s*[∙·•]\s*resets|session limit|weekly limit|5-hour limit/i;
const QUOTA = /quota|insufficient_quota|credit balance|billing|resource_exhausted|out of credits/i;
const RATE = /rate[_ -]?limit|too many requests/i;

export function classifyApiError(e: ApiErrorFacts): ApiErrorClass {
  const fields = [e.type, e.code].filter((v): v is string => typeof v === 'string' && v.length > 0).join(' ');
  const kind = (words: string): LimitKind | null => (USAGE.test(words) ? 'usage_limit' : QUOTA.test(words) ? 'quota' : RATE.test(words) ? 'rate_limit' : null);
  if (e.status === 529 || OVERLOADED.test(fields)) return { class: 'overloaded' };
  const byFields = kind(fields);
  if (byFields) return { class: 'limit', kind: byFields };
  const text = e.text ?? '';
  if (e.status === 429) return { class: 'limit', kind: kind(text) ?? 'rate_limit' };
  // 402 Payment Required: credits or billing exhausted (OpenRouter, Nous Portal).
  if (e.status === 402) return { class: 'limit', kind: 'quota' };
  if (!fields && OVERLOADED.test(text)) return { class: 'overloaded' };
  // No status or type at all: an older build's message alone (a 5xx or a bad request never says "limit").
  if (e.status === undefined || e.status === null) {
    const byText = kind(text);
    if (byText) return { class: 'limit', kind: byText };
  }
  return { class: 'other' };
}

/** A reset time an agent's message carries: Claude's `|<epoch seconds>` suffix, or "reset(s) at <ISO time>". */
export function resetFromText(text: string): string | null {
  const epoch = /\|(\d{9,11})\b/.exec(text);
  if (epoch) return new Date(Number(epoch[1]) * 1000).toISOString();
  const at = /resets? at (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))/i.exec(text);
  const ms = at ? Date.parse(at[1]!) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The `reached` usage-limit entry a limit hit is stored as. */
export function reachedLimit(kind: LimitKind, note: string, resetsAt: string | null = null, extra: { window?: string | null; windowMinutes?: number | null } = {}): UsageLimit {
  return { name: 'reached', usedPercent: 100, windowMinutes: extra.windowMinutes ?? null, resetsAt, note: note.replace(/\|\d{9,11}\b/, '').trim().slice(0, 200), kind, window: extra.window ?? null };
}

/** A usage record that carries only a limit hit (no tokens). */
export function limitRecord(key: string, at: string | null, limit: UsageLimit) {
  return { key, at, model: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, contextWindow: null, limits: [limit] };
}
