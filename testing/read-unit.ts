/** Test support: read one unit of an adapter to the end, collecting batches and diagnostics. */
import type { Diagnostic } from '../shared/model.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../electron/core/sources/types.js';

export async function readUnit(adapter: SourceAdapter, unit: SourceUnit, cursor: JsonValue | null = null) {
  const batches: ReadBatch[] = [];
  const diagnostics: Omit<Diagnostic, 'at'>[] = [];
  for await (const b of adapter.read(unit, { cursor, diagnostic: (d) => diagnostics.push(d) })) batches.push(b);
  return {
    batches,
    diagnostics,
    sessions: batches.flatMap((b) => b.sessions),
    /** The cursor to resume from: the last one a batch carried, or the one passed in. */
    cursor: batches.reduce<JsonValue | null>((c, b) => (b.cursor === undefined ? c : b.cursor), cursor),
  };
}
