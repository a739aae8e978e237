/** Age bands of a checkpoint (GovZero ADR-0.0.25 Decision 4): how much to trust it before resuming. */
import type { StalenessBand } from '../../../shared/api-types.js';

const HOUR = 3_600_000;

export function stalenessBand(at: string | Date, now: Date): StalenessBand {
  const age = now.getTime() - new Date(at).getTime();
  if (age < 24 * HOUR) return 'fresh';
  if (age < 72 * HOUR) return 'slightly_stale';
  if (age <= 7 * 24 * HOUR) return 'stale';
  return 'very_stale';
}

export const STALENESS_LABELS: Record<StalenessBand, string> = {
  fresh: 'fresh (< 24 h): resume directly',
  slightly_stale: 'slightly stale (24–72 h): resume with caution, verify key assumptions',
  stale: 'stale (72 h – 7 d): have a human verify before resuming',
  very_stale: 'very stale (> 7 d): have a human verify; consider a new checkpoint',
};
