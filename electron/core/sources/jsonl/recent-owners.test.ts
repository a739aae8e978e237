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

  it('getOrAdd answers like two generations of Maps, across table growth and rotations', () => {
    // Reference: the plain two-Map version of the same contract.
    class Reference {
      young = new Map<string, number>();
      old = new Map<string, number>();
      constructor(private readonly limit: number) {}
      getOrAdd(key: string, value: number): number | undefined {
        const had = this.young.get(key) ?? this.old.get(key);
        if (had !== undefined) return had;
        if (this.young.size >= this.limit) {
          this.old = this.young;
          this.young = new Map();
        }
        this.young.set(key, value);
        return undefined;
      }
    }
    let seed = 42;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);
    const keys: string[] = [];
    for (let i = 0; i < 6000; i++) {
      const r = rand();
      if (r % 10 === 0) keys.push(`other-${i}`);
      else if (r % 10 === 1) keys.push('00000000-0000-0000-0000-000000000000'); // nil uuid: no bits to store
      else keys.push(`${hex(rand(), 8)}-${hex(rand(), 4)}-4${hex(rand(), 3)}-8${hex(rand(), 3)}-${hex(rand(), 4)}${hex(rand(), 8)}`);
    }
    for (const limit of [1, 7, 700, 5000]) {
      const m = new RecentOwners<number>(limit);
      const ref = new Reference(limit);
      let hits = 0;
      for (let step = 0; step < 20_000; step++) {
        // Mostly recent keys (hits in both generations), sometimes long-forgotten ones.
        const r = rand();
        const at = r % 4 === 0 ? r % keys.length : Math.min(keys.length - 1, (step % keys.length) + (r % 50));
        const key = keys[at]!;
        const want = ref.getOrAdd(key, step);
        expect(m.getOrAdd(key, step)).toBe(want);
        if (want !== undefined) hits++;
      }
      if (limit >= 700) expect(hits).toBeGreaterThan(1000); // the comparison covered hits, not only misses
      expect(m.size).toBe(ref.young.size + ref.old.size);
    }
  });
});
