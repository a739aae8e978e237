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

  it('is exact: every key maps to its own value (32-bit fingerprints do collide at this size)', () => {
    const m = new RecentOwners<number>(300_000);
    for (let i = 0; i < 300_000; i++) m.add(`${i.toString(36)}-uuid`, i);
    for (let i = 0; i < 300_000; i++) expect(m.get(`${i.toString(36)}-uuid`)).toBe(i);
    expect(m.get('not-there')).toBeUndefined();
    m.add('late', -1); // starts a new generation: the previous one is still remembered
    expect(m.get('late')).toBe(-1);
    expect(m.get('0-uuid')).toBe(0);
  });

  it('keeps canonical uuids exactly (as bits) next to any other key', () => {
    const m = new RecentOwners<string>(100);
    const a = '0812f9f4-378e-4a9b-851d-b8431a856927';
    const b = '0812f9f4-378e-4a9b-851d-b8431a856928';
    m.add(a, 'session-a');
    m.add('u1', 'session-b');
    expect(m.get(a)).toBe('session-a');
    expect(m.get(b)).toBeUndefined();
    expect(m.get(a.toUpperCase())).toBeUndefined(); // another string, so another key
    expect(m.get('u1')).toBe('session-b');
    expect(m.get('0812f9f4_378e-4a9b-851d-b8431a856927')).toBeUndefined();
    for (let i = 0; i < 250; i++) m.add(`${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`, `s${i}`);
    expect(m.get(a)).toBeUndefined(); // two generations later: forgotten
    expect(m.get('000000f9-0000-4000-8000-000000000000')).toBe('s249');
    expect(m.size).toBeLessThanOrEqual(200);
  });
});
