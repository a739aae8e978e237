import { describe, expect, it } from 'vitest';
import { RecentOwners } from './recent-owners.js';

describe('RecentOwners', () => {
  it('remembers at least the `limit` most recent keys and at most twice that', () => {
    const m = new RecentOwners<number>(1000);
    for (let i = 0; i < 10_000; i++) m.add(`k${i}`, i);
    expect(m.size).toBeLessThanOrEqual(2000);
    for (let i = 9000; i < 10_000; i++) expect(m.get(`k${i}`)).toBe(i);
    expect(m.get('k0')).toBeUndefined();
    expect(m.get('k7999')).toBeUndefined();
  });
});
