/** The table `baton list` prints. */
import type { Session } from '../../../shared/model.js';
import { nestSubagents } from '../../../shared/session-tree.js';
import { shortestUniquePrefixes, type SessionKey } from '../../core/sessions/short-ids.js';
import { sessionHost } from '../../../shared/machines.js';
import { formatTable, shorten } from './table.js';

/** Subagents under their parent (↳, indented), or marked where the parent is not listed. */
export function sessionTable(sessions: (Session & { continuedFrom?: string })[], universe: SessionKey[]): string {
  const ids = shortestUniquePrefixes(sessions, universe);
  return formatTable(
    ['UPDATED', 'AGENT', 'ID', 'TURNS', 'TITLE', 'DIRECTORY'],
    nestSubagents(sessions).map(({ session: s, depth, subagent }) => {
      const mark = depth > 0 ? `${'  '.repeat(depth - 1)}↳ ` : subagent ? '↳ (subagent) ' : '';
      return [
        (s.updatedAt ?? '').slice(0, 16).replace('T', ' '),
        // A host's session: `devbox/claude`, as its id reads.
        (sessionHost(s.id) ? `${sessionHost(s.id)}/` : '') + s.agent + (s.sourceGone ? ' (gone)' : ''),
        ids.get(s.id) ?? s.id,
        String(s.userTurns),
        // A session Baton continued from another: the source it continues, by its listed id.
        mark + (s.continuedFrom ? `⇠ ${ids.get(s.continuedFrom) ?? s.continuedFrom} ` : '') + shorten(s.title ?? s.firstPrompt ?? '', 48 - mark.length),
        shorten(s.cwd ?? '', 40),
      ];
    }),
  );
}
