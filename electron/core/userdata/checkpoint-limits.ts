/**
 * How much a checkpoint may hold. Each field is already bounded by the request schema (a summary of
 * 20,000 characters, lists of 200 items of 4,000); together they could still reach ~5 MB. A
 * checkpoint over MAX_CHECKPOINT_CHARS is refused whole with the reason (nothing of it is stored,
 * so nothing accepted is ever lost or silently cut); anything accepted is stored in full and only
 * ever rendered cut to a budget.
 */
import { ApiError } from '../../../shared/contract.js';
import type { NewCheckpoint } from './user-data.js';

export const MAX_CHECKPOINT_CHARS = 2_000_000;

const LISTS = ['decisions', 'nextSteps', 'blockers', 'itemsCompleted', 'itemsAdded', 'filesChanged'] as const;

export function checkpointChars(input: Pick<NewCheckpoint, 'summary' | (typeof LISTS)[number]>): number {
  let n = input.summary.length;
  for (const key of LISTS) for (const item of input[key]) n += item.length;
  return n;
}

/** Throws `bad_request` when the checkpoint's text is over the limit. */
export function assertCheckpointSize(input: Pick<NewCheckpoint, 'summary' | (typeof LISTS)[number]>): void {
  const chars = checkpointChars(input);
  if (chars > MAX_CHECKPOINT_CHARS) {
    throw new ApiError(
      'bad_request',
      `This checkpoint holds ${chars.toLocaleString('en-US')} characters; at most ${MAX_CHECKPOINT_CHARS.toLocaleString('en-US')} are accepted. ` +
        'Keep the summary and lists to what the next agent needs (or split it over several checkpoints).',
    );
  }
}
