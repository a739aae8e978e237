/**
 * Test support for reads of a store whose rows were cloned (bench/corpus.ts `cloneSqlite`: ids
 * suffixed `_b<k>`): every clone must read exactly as its original, however the read was cut into
 * queries and batches.
 */
import type { ReadBatch } from '../electron/core/sources/types.js';

const CLONE_SUFFIX = /_b\d+$/;

/** Sessions whose transcript differs from their original's, and how many sessions were read. */
export function cloneMismatches(batches: readonly ReadBatch[]): { sessions: number; mismatches: string[] } {
  const transcripts = new Map<string, string[]>();
  for (const b of batches) {
    for (const s of b.sessions) if (!transcripts.has(s.id)) transcripts.set(s.id, []);
    for (const m of b.messages) transcripts.get(m.sessionId)?.push(`${m.seq}:${m.role}:${m.kind}:${m.text}`);
  }
  const mismatches: string[] = [];
  for (const [id, lines] of transcripts) {
    if (!CLONE_SUFFIX.test(id)) continue;
    const original = transcripts.get(id.replace(CLONE_SUFFIX, ''));
    if (!original || original.join('\n') !== lines.join('\n')) mismatches.push(id);
  }
  return { sessions: transcripts.size, mismatches };
}
