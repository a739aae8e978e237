import { describe, expect, it } from 'vitest';
import { compactTokens, compactionPoints, fillLevel, formatCost, sparklinePoints } from './usage-format.js';

describe('usage formatting', () => {
  it('shortens token counts', () => {
    expect([compactTokens(999), compactTokens(1234), compactTokens(45_600), compactTokens(2_500_000), compactTokens(12_000_000)]).toEqual(['999', '1.2k', '46k', '2.5M', '12M']);
  });

  it('says "no price" for an unpriced total, never $0.00', () => {
    expect(formatCost(null)).toBe('no price');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.004)).toBe('<$0.01');
    expect(formatCost(12.4)).toBe('$12.40');
  });

  it('grades a context fill against the alert threshold', () => {
    expect([fillLevel(10), fillLevel(72), fillLevel(85), fillLevel(80, 75)]).toEqual(['ok', 'high', 'full', 'full']);
  });

  it('finds compactions as big drops in context between requests, not small ones', () => {
    expect(compactionPoints([10_000, 50_000, 120_000, 30_000, 40_000, 35_000, 25_000, 2_000])).toEqual([3, 7]);
    expect(compactionPoints([1000, 200])).toEqual([]); // a small session swinging is no compaction
  });

  it('draws a sparkline scaled to its maximum', () => {
    expect(sparklinePoints([0, 50, 100], 100, 20)).toBe('0,20 50,10 100,0');
    expect(sparklinePoints([50], 100, 20, 100)).toBe('0,10');
    expect(sparklinePoints([], 100, 20)).toBe('');
  });
});
