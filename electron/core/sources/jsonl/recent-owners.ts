/**
 * A bounded key → owner memory that forgets the oldest keys first, in O(1) per operation, exact.
 *
 * Two generations of `limit` keys each: new keys go into the young one; when it is full it becomes
 * the old one and the previous old one is cleared for reuse. So at least the `limit` most recent
 * keys (at most 2 × `limit`) are remembered. (Deleting a Map's first key one at a time instead is
 * quadratic in V8: iteration has to step over every deleted slot until the table is rehashed.)
 *
 * It is asked once per transcript line with a fresh, mostly unseen uuid. Keeping those strings
 * alive in a Map costs more than the lookup (each one is promoted and traced by the GC), so a
 * canonical lowercase uuid is stored as its 128 bits in an open-addressing table of Int32Arrays
 * (same bits ⇔ same string: nothing is lost). Any other key goes to a plain Map.
 */

const NONE = -1;

/** Hex digit value by char code, -1 for anything else (uppercase is not canonical here). */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[97 + c] = 10 + c;

/** Parses `8-4-4-4-12` lowercase hex into `out` (4 × 32 bits); false when `key` is not that. */
function uuidBits(key: string, out: Int32Array): boolean {
  if (key.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    const c = key.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45 /* - */) return false;
      continue;
    }
    const v = c < 128 ? HEX[c]! : -1;
    if (v < 0) return false;
    word = (word << 4) | v;
    digits++;
    if ((digits & 7) === 0) {
      out[(digits >> 3) - 1] = word;
      word = 0;
    }
  }
  return true;
}

class Generation {
  /** 4 words of uuid bits per slot. */
  readonly bits: Int32Array;
  /** Owner index + 1 per slot; 0 = empty. */
  readonly owners: Int32Array;
  readonly others = new Map<string, number>();
  size = 0;
  readonly mask: number;

  constructor(limit: number) {
    let capacity = 16;
    while (capacity < limit * 2) capacity *= 2; // load factor ≤ 1/2: short probe runs
    this.mask = capacity - 1;
    this.bits = new Int32Array(capacity * 4);
    this.owners = new Int32Array(capacity);
  }

  /** Slot holding `b`, or the free slot where it would go (as -1 - slot). */
  find(b: Int32Array): number {
    let i = (b[0]! ^ Math.imul(b[3]!, 0x9e3779b1)) & this.mask;
    for (;;) {
      if (this.owners[i] === 0) return -1 - i;
      const at = i * 4;
      const s = this.bits;
      if (s[at] === b[0] && s[at + 1] === b[1] && s[at + 2] === b[2] && s[at + 3] === b[3]) return i;
      i = (i + 1) & this.mask;
    }
  }

  clear(): void {
    this.owners.fill(0);
    this.others.clear();
    this.size = 0;
  }
}

export class RecentOwners<V> {
  private young: Generation;
  private old: Generation;
  /** Distinct owners seen (sessions: few, small), indexed by the tables. */
  private readonly ownerList: V[] = [];
  private readonly ownerIndex = new Map<V, number>();
  /** Bits of `scratchKey` (add() follows the get() that missed: parse once). */
  private readonly scratch = new Int32Array(4);
  private scratchKey: string | null = null;
  private scratchIsUuid = false;
  private lastOwner: V | undefined = undefined;
  private lastOwnerIndex = 0;

  constructor(private readonly limit: number) {
    this.young = new Generation(limit);
    this.old = new Generation(limit);
  }

  get(key: string): V | undefined {
    const uuid = this.parse(key);
    const i = this.lookup(this.young, key, uuid);
    const j = i !== NONE ? i : this.lookup(this.old, key, uuid);
    return j === NONE ? undefined : this.ownerList[j];
  }

  /** Remembers `key` (callers only add keys that `get` did not find). */
  add(key: string, value: V): void {
    if (this.young.size >= this.limit) {
      const recycled = this.old;
      recycled.clear();
      this.old = this.young;
      this.young = recycled;
    }
    let owner = value === this.lastOwner ? this.lastOwnerIndex : this.ownerIndex.get(value);
    if (owner === undefined) {
      owner = this.ownerList.length;
      this.ownerList.push(value);
      this.ownerIndex.set(value, owner);
    }
    this.lastOwner = value;
    this.lastOwnerIndex = owner;
    const g = this.young;
    if (!this.parse(key)) {
      if (!g.others.has(key)) g.size++;
      g.others.set(key, owner);
      return;
    }
    const slot = g.find(this.scratch);
    const free = slot >= 0 ? slot : -1 - slot;
    if (slot < 0) {
      g.bits.set(this.scratch, free * 4);
      g.size++;
    }
    g.owners[free] = owner + 1;
  }

  /** The owner `key` already has, or undefined after remembering `value` as its owner. */
  getOrAdd(key: string, value: V): V | undefined {
    const owner = this.get(key);
    if (owner === undefined) this.add(key, value);
    return owner;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  private parse(key: string): boolean {
    if (key !== this.scratchKey) {
      this.scratchIsUuid = uuidBits(key, this.scratch);
      this.scratchKey = key;
    }
    return this.scratchIsUuid;
  }

  /** Owner index of `key` in `g`, or NONE; `uuid`: `scratch` holds its bits. */
  private lookup(g: Generation, key: string, uuid: boolean): number {
    if (!uuid) return g.others.get(key) ?? NONE;
    const slot = g.find(this.scratch);
    return slot >= 0 ? g.owners[slot]! - 1 : NONE;
  }
}
