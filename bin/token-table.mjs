// The o200k token table that electron/core/briefs/token-table.ts counts with, written from the
// installed gpt-tokenizer at build time (bin/cli-bundle.mjs puts it beside the bundle). Building
// gpt-tokenizer's encoder (a 2.4 MB JavaScript array, then a 200k-entry Map) costs a one-shot
// `baton brief` ~250 ms; this table is read in one go and searched in place.
// Layout (little-endian u32 unless said): magic "BTT1", count, pattern byte length, flags byte
// length, pattern and flags (UTF-8, padded to 4), then count+1 offsets into the token bytes, count
// ranks, and the token bytes, sorted bytewise so a lookup is a binary search.
// Only entries gpt-tokenizer itself finds by their bytes go in, so a lookup here answers exactly
// what gpt-tokenizer's would.
import { createRequire } from 'node:module';

export const TOKEN_TABLE_FILE = 'o200k-token-table.bin';

/** The table as bytes. `requireFrom`: where gpt-tokenizer is resolved from (default: here). */
export function buildTokenTable(requireFrom = import.meta.url) {
  const gpt = createRequire(requireFrom)('gpt-tokenizer');
  const core = gpt.default.bytePairEncodingCoreProcessor;
  const utf8 = new TextEncoder();
  const entries = [];
  core.bytePairRankDecoder.forEach((value, rank) => {
    const bytes = typeof value === 'string' ? utf8.encode(value) : new Uint8Array(value);
    if (core.getBpeRankFromBytes(bytes) === rank) entries.push([bytes, rank]);
  });
  entries.sort((a, b) => Buffer.compare(a[0], b[0]));
  const pattern = utf8.encode(core.tokenSplitRegex.source);
  const flags = utf8.encode(core.tokenSplitRegex.flags);
  const pad = (n) => (n + 3) & ~3;
  const blobBytes = entries.reduce((n, [b]) => n + b.length, 0);
  const head = 16 + pad(pattern.length) + pad(flags.length);
  const out = new Uint8Array(head + 4 * (entries.length + 1) + 4 * entries.length + blobBytes);
  const view = new DataView(out.buffer);
  out.set(utf8.encode('BTT1'), 0);
  view.setUint32(4, entries.length, true);
  view.setUint32(8, pattern.length, true);
  view.setUint32(12, flags.length, true);
  out.set(pattern, 16);
  out.set(flags, 16 + pad(pattern.length));
  const offsets = head;
  const ranks = offsets + 4 * (entries.length + 1);
  const blob = ranks + 4 * entries.length;
  let at = 0;
  entries.forEach(([bytes, rank], i) => {
    view.setUint32(offsets + 4 * i, at, true);
    view.setUint32(ranks + 4 * i, rank, true);
    out.set(bytes, blob + at);
    at += bytes.length;
  });
  view.setUint32(offsets + 4 * entries.length, at, true);
  return out;
}
