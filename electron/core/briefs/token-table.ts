/**
 * Counts o200k tokens exactly as gpt-tokenizer's `countTokens` does, from the table bin/token-table.mjs
 * writes at build time (the same ranks and split pattern, taken from the installed gpt-tokenizer):
 * the same pieces, each whole when it is a token, else merged pair by lowest rank (tiktoken's byte
 * pair merge). The table is searched where it lies, so nothing is built at start (gpt-tokenizer's
 * encoder costs a one-shot process ~250 ms). Text holding a special-token string is left to
 * gpt-tokenizer (tokens.ts), which refuses it.
 */

const MAGIC = 0x31545442; // "BTT1", little-endian
/** Its file name beside the bundle (bin/token-table.mjs writes it under the same name). */
export const TOKEN_TABLE_FILE = 'o200k-token-table.bin';

/** Under the u flag a surrogate pair is one code point: this matches only a lone half. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Pieces remembered with their token counts (words repeat): a map this big stays cheap. */
const PIECE_CACHE_SIZE = 50_000;

export class TokenTable {
  private readonly view: DataView;
  private readonly size: number;
  private readonly offsets: Uint32Array;
  private readonly ranks: Uint32Array;
  private readonly blob: number;
  private readonly pieces = new Map<string, number>();
  private readonly split: RegExp;
  private readonly utf8 = new TextEncoder();
  private scratch = new Uint8Array(4096);

  constructor(private readonly bytes: Uint8Array) {
    // Typed-array views need 4-byte alignment; a buffer read from a file may sit anywhere in a pool.
    if (bytes.byteOffset % 4 !== 0) this.bytes = bytes = bytes.slice();
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 16 || this.view.getUint32(0, true) !== MAGIC) throw new Error('not a token table');
    this.size = this.u32(4);
    const patternLength = this.u32(8);
    const flagsLength = this.u32(12);
    const pad = (n: number) => (n + 3) & ~3;
    const text = new TextDecoder();
    const pattern = text.decode(bytes.subarray(16, 16 + patternLength));
    const flagsAt = 16 + pad(patternLength);
    this.split = new RegExp(pattern, text.decode(bytes.subarray(flagsAt, flagsAt + flagsLength)));
    const offsetsAt = flagsAt + pad(flagsLength);
    const ranksAt = offsetsAt + 4 * (this.size + 1);
    this.blob = ranksAt + 4 * this.size;
    if (this.blob > bytes.byteLength) throw new Error('token table is truncated');
    this.offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + offsetsAt, this.size + 1);
    this.ranks = new Uint32Array(bytes.buffer, bytes.byteOffset + ranksAt, this.size);
    if (this.blob + this.offsets[this.size]! !== bytes.byteLength) throw new Error('token table is truncated');
  }

  private u32(at: number): number {
    return this.view.getUint32(at, true);
  }

  /** The rank of the token whose bytes are buf[from, to), or -1. */
  rank(buf: Uint8Array, from: number, to: number): number {
    let lo = 0;
    let hi = this.size - 1;
    const len = to - from;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = this.blob + this.offsets[mid]!;
      const end = this.blob + this.offsets[mid + 1]!;
      const n = Math.min(end - start, len);
      let cmp = 0;
      for (let i = 0; i < n && cmp === 0; i++) cmp = this.bytes[start + i]! - buf[from + i]!;
      if (cmp === 0) cmp = end - start - len;
      if (cmp === 0) return this.ranks[mid]!;
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  count(text: string): number {
    let tokens = 0;
    this.split.lastIndex = 0;
    for (const [piece] of text.matchAll(this.split)) {
      const known = this.pieces.get(piece);
      if (known !== undefined) {
        tokens += known;
        continue;
      }
      const need = piece.length * 3;
      if (this.scratch.length < need) this.scratch = new Uint8Array(need * 2);
      // Lone surrogates become U+FFFD here, as in gpt-tokenizer's TextEncoder; such a piece is
      // never one token there (its string is not in the table), so it is merged, as there.
      const { written } = this.utf8.encodeInto(piece, this.scratch);
      const n = !LONE_SURROGATE.test(piece) && this.rank(this.scratch, 0, written) >= 0 ? 1 : this.merge(this.scratch, written);
      if (this.pieces.size >= PIECE_CACHE_SIZE) this.pieces.clear();
      this.pieces.set(piece, n);
      tokens += n;
    }
    return tokens;
  }

  /** Tokens of buf[0, n) by byte pair merge, lowest rank first, leftmost on ties. */
  private merge(buf: Uint8Array, n: number): number {
    const starts: number[] = [];
    const ranks: number[] = [];
    const pairRank = (i: number): number => {
      const end = starts[i + 2];
      if (end === undefined) return Number.POSITIVE_INFINITY;
      const r = this.rank(buf, starts[i]!, end);
      return r < 0 ? Number.POSITIVE_INFINITY : r;
    };
    for (let i = 0; i <= n; i++) starts.push(i);
    for (let i = 0; i <= n; i++) ranks.push(i < n - 1 ? pairRank(i) : Number.POSITIVE_INFINITY);
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = pairRank(at);
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
    }
    return starts.length - 1;
  }
}
