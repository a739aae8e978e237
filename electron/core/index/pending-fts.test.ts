import { describe, expect, it } from 'vitest';
import { PendingFts } from './pending-fts.js';

function drained(p: PendingFts): [number, string | null][] {
  const out: [number, string | null][] = [];
  p.drain((id, text) => out.push([id, text]));
  return out;
}

describe('pending FTS changes', () => {
  it('keeps order, ids past 2^31 and deletes, across growth, and is empty once drained', () => {
    const p = new PendingFts();
    const want: [number, string | null][] = [];
    for (let i = 0; i < 10_000; i++) {
      const id = 3_000 * 2 ** 24 + i; // session rowid 3000: far beyond a small integer
      const text = i % 7 === 0 ? null : `text ${i}`;
      p.push(id, text);
      want.push([id, text]);
    }
    expect(p.size).toBe(10_000);
    expect(drained(p)).toEqual(want);
    expect(p.size).toBe(0);
    expect(drained(p)).toEqual([]);
    p.push(5, 'again');
    expect(drained(p)).toEqual([[5, 'again']]);
  });

  it('drops what is queued on clear (a rolled-back transaction) and when applying throws', () => {
    const p = new PendingFts();
    p.push(1, 'a');
    p.clear();
    expect(drained(p)).toEqual([]);
    p.push(1, 'a');
    p.push(2, 'b');
    expect(() => p.drain(() => {
      throw new Error('disk full');
    })).toThrow('disk full');
    expect(p.size).toBe(0);
  });
});
