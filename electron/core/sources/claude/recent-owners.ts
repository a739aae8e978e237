/**
 * A bounded key → value memory that forgets the oldest keys first, in O(1) per operation.
 *
 * Two generations of `limit` keys each: new keys go into the young one; when it is full it becomes
 * the old one and the previous old one is dropped. So at least the `limit` most recent keys (at
 * most 2 × `limit`) are remembered. (Deleting a Map's first key one at a time instead is quadratic
 * in V8: iteration has to step over every deleted slot until the table is rehashed.)
 */
export class RecentOwners<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    const v = this.young.get(key);
    return v !== undefined ? v : this.old.get(key);
  }

  /** Remembers `key` (callers only add keys that `get` did not find). */
  add(key: string, value: V): void {
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
