import { memo, type CSSProperties } from 'react';
import type { StalenessBand } from '../../../shared/api-types.js';
import { fullTime, relativeTime } from '../../../shared/time-labels.js';
import { projectName } from '../../../shared/project-labels.js';
import { rowTitle, type SessionRow } from '../store/rows.js';
import type { SessionUsage } from '../../../shared/usage.js';
import { AgentBadge } from './AgentBadge.js';
import { ContextMeter } from './ContextMeter.js';
import { sessionHost } from '../../../shared/machines.js';
import { Snippet } from './Snippet.js';

export const STALENESS_LABELS: Record<StalenessBand, string> = {
  fresh: 'Checkpoint fresh (under a day)',
  slightly_stale: 'Checkpoint slightly stale (1–3 days)',
  stale: 'Checkpoint stale (3–7 days): verify before resuming',
  very_stale: 'Checkpoint very stale (over a week): verify before resuming',
};

export const SessionRowView = memo(function SessionRowView(props: {
  id: string;
  row: SessionRow;
  selected: boolean;
  style: CSSProperties;
  /** The session's usage when it is live (a context meter shows). */
  usage?: SessionUsage;
  threshold?: number;
  onClick: () => void;
}) {
  const { row, selected } = props;
  const title = rowTitle(row);
  const host = sessionHost(row.id);
  return (
    <div
      id={props.id}
      role="option"
      aria-selected={selected}
      className="session-row"
      data-session-id={row.id}
      data-subagent={row.subagent || undefined}
      style={row.depth > 0 ? { ...props.style, paddingLeft: 10 + 18 * row.depth } : props.style}
      onClick={props.onClick}
    >
      <div className="row-line">
        {row.subagent && (
          <span className="row-subagent" title="Subagent session (started by another session)">
            ↳<span className="visually-hidden">Subagent:</span>
          </span>
        )}
        <AgentBadge agent={row.agent} />
        <span className="row-title" title={title}>
          {title}
        </span>
        <time className="row-time" dateTime={row.updatedAt ?? undefined} title={fullTime(row.updatedAt)}>
          {relativeTime(row.updatedAt)}
        </time>
      </div>
      <div className="row-meta">
        {host && (
          <span className="row-host" title={`On ${host} (read over ssh)`}>
            {host}
          </span>
        )}
        <span className="row-project" title={row.cwd ?? 'No working directory recorded'}>
          {projectName(row.cwd)}
        </span>
        {row.gitBranch && (
          <span className="row-branch" title={`Git branch ${row.gitBranch}`}>
            {row.gitBranch}
          </span>
        )}
        {row.messageCount !== null && (
          <span className="row-count" title={`${row.messageCount} messages`}>
            {row.messageCount} msg
          </span>
        )}
        {row.matches > 1 && <span className="row-count">{row.matches} matches</span>}
        {props.usage && <ContextMeter usage={props.usage} threshold={props.threshold} />}
        {row.staleness && (
          <span className="staleness" data-band={row.staleness} title={STALENESS_LABELS[row.staleness]}>
            <span className="visually-hidden">{STALENESS_LABELS[row.staleness]}</span>
          </span>
        )}
      </div>
      {row.snippet && (
        <div className="row-snippet">
          {row.snippetOtherBranch && <span className="row-branch">another branch · </span>}
          <Snippet text={row.snippet} />
        </div>
      )}
    </div>
  );
});
