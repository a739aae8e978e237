/** Session references (id, id prefix, title words) to ids, with errors that say what to do. */
import { ApiError } from '../../../shared/contract.js';
import type { SessionIndex } from '../index/session-index.js';

export function resolveSessionRef(index: SessionIndex, ref: string): string {
  const result = index.resolveSessionRef(ref);
  if (result.status === 'found') return result.sessionId;
  if (result.status === 'ambiguous') {
    const list = result.candidates.map((c) => `${c.id} (${c.title ?? c.firstPrompt ?? 'untitled'})`).join('; ');
    throw new ApiError('ambiguous', `"${ref}" matches ${result.candidates.length} sessions: ${list}. Use a full id or more words.`, result.candidates);
  }
  throw new ApiError('not_found', `No session matches "${ref}". List sessions to find its id (e.g. \`baton list\`), or use more of the title.`);
}
