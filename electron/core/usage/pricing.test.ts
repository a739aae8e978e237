import { describe, expect, it } from 'vitest';
import { normalizeModel, Pricing } from './pricing.js';

describe('pricing', () => {
  it('normalizes provider prefixes, date suffixes and dotted Claude versions', () => {
    expect(normalizeModel('anthropic/claude-sonnet-4.5')).toBe('claude-sonnet-4-5');
    expect(normalizeModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(normalizeModel('[pi] mock-sonnet')).toBe('mock-sonnet');
    expect(normalizeModel('custom:claude-sonnet-4.5')).toBe('claude-sonnet-4-5'); // Droid's BYOK model ids
    expect(normalizeModel('gpt-5.5')).toBe('gpt-5.5');
  });

  it('prices known models like ccusage does on the fixtures, and unknown models at null (not 0)', () => {
    const p = new Pricing();
    // Codex fixture session: 38,673 input, 1,068 output → ccusage 20.0.24 says $0.225405.
    expect(p.costOf('gpt-5.5', { input: 38_673, output: 1_068, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(0.225405, 9);
    // Hermes fixture session on anthropic/claude-sonnet-4.5: 964 in, 413 out → $0.009087.
    expect(p.costOf('anthropic/claude-sonnet-4.5', { input: 964, output: 413, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(0.009087, 9);
    expect(p.costOf('mock-coder', { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 })).toBeNull();
    expect(p.costOf(null, { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 })).toBeNull();
    // The longest prefix wins: gpt-5-mini is not priced as gpt-5.
    expect(p.priceOf('gpt-5-mini-2025-08-07')?.input).toBe(0.25);
    expect(p.priceOf('gpt-5-codex')?.input).toBe(1.25);
  });

  it('lets the modelPricing setting add and override models', () => {
    const p = new Pricing({ 'mock-coder': { input: 1, output: 2 }, 'gpt-5.5': { input: 4, output: 20, contextWindow: 400_000 } });
    expect(p.costOf('mock-coder', { input: 1_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0 })).toBe(3);
    expect(p.priceOf('gpt-5.5')).toMatchObject({ input: 4, output: 20, cacheRead: 0.5, contextWindow: 400_000 });
  });

  it('knows context windows by family when a model has no price', () => {
    const p = new Pricing();
    expect(p.contextWindowOf('claude-opus-5-5')).toBe(200_000);
    expect(p.contextWindowOf('mock-coder')).toBeNull();
  });
});
