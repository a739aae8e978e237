/**
 * Corpus totals BM25 needs (indexed messages and their tokens, hence the average message length),
 * read from FTS5's "averages" record: one row, instead of the aggregate over a million rows.
 */
import type { IndexDb } from './index-db.js';

export interface FtsTotals {
  docs: number;
  avgDocLength: number;
}

/** SQLite/FTS5 varints: big-endian groups of 7 bits, the 9th byte (if any) contributes 8 bits. */
export function decodeVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < buf.length) {
    let v = 0;
    for (let n = 0; i < buf.length; n++) {
      const byte = buf[i++]!;
      if (n === 8) {
        v = v * 256 + byte;
        break;
      }
      v = v * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

export class FtsStats {
  private readonly averages;

  constructor(db: IndexDb, table = 'message_fts') {
    // FTS5 shadow table `<table>_data`, row 1: varint row count, then total tokens per column.
    this.averages = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck();
  }

  totals(): FtsTotals {
    const block = this.averages.get() as Uint8Array | undefined;
    const [docs = 0, tokens = 0] = block ? decodeVarints(block) : [];
    return { docs, avgDocLength: docs > 0 ? tokens / docs : 0 };
  }
}
