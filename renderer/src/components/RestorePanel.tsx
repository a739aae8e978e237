/** Restore: what changed in the repo since the checkpoint (drift) first, then confirm to get the brief. */
import { useEffect, useRef } from 'react';
import type { GitDrift } from '../../../shared/api-types.js';
import { useApp, useAppStore } from '../store/context.js';

export function RestorePanel() {
  const store = useAppStore();
  const restore = useApp((s) => s.restore);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (restore.phase === 'drift') confirmRef.current?.focus();
  }, [restore.phase]);

  if (restore.phase === 'idle') return null;
  if (restore.phase === 'loading') return <div className="panel">Checking what changed since the last checkpoint…</div>;
  if (restore.phase === 'error') {
    return (
      <div className="panel" role="alert">
        <p className="error-text">Restore failed: {restore.message}</p>
        <button type="button" onClick={() => store.getState().cancelRestore()}>
          Close
        </button>
      </div>
    );
  }
  const { result } = restore;
  const cancel = () => store.getState().cancelRestore();
  return (
    <div
      className="panel restore-panel"
      data-modal={restore.phase !== 'done'}
      aria-label="Restore"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          cancel();
        }
      }}
    >
      <h3>{restore.phase === 'done' ? 'Restored' : 'Before you restore'}</h3>
      <p>{result.summary}</p>
      {result.checkpoint ? (
        <p className="muted">
          From the checkpoint of {new Date(result.checkpoint.createdAt).toLocaleString()} ({result.checkpoint.status}).
        </p>
      ) : (
        <p className="muted">No checkpoint yet: the brief is built from the transcript.</p>
      )}
      <DriftDetails drift={result.drift} />
      {restore.phase === 'done' ? (
        <div className="panel-actions">
          <span className="muted">The brief below is the restored one; copy it into the next agent.</span>
          <button type="button" onClick={cancel}>
            Close
          </button>
        </div>
      ) : (
        <div className="panel-actions">
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button ref={confirmRef} type="button" className="primary" disabled={restore.phase === 'confirming'} onClick={() => void store.getState().confirmRestore()}>
            {restore.phase === 'confirming' ? 'Restoring…' : 'Restore anyway'}
          </button>
        </div>
      )}
    </div>
  );
}

function DriftDetails({ drift }: { drift: GitDrift | null }) {
  if (!drift) return <p className="muted">No git state was recorded, so drift cannot be checked.</p>;
  const items: string[] = [];
  if (drift.error) items.push(drift.error);
  if (drift.branchSwitched) items.push(`Branch switched from ${drift.branchSwitched.from ?? '(none)'} to ${drift.branchSwitched.to ?? '(none)'}`);
  if (drift.commitsSince.length) items.push(`${drift.commitsSince.length} commit${drift.commitsSince.length === 1 ? '' : 's'} since`);
  if (drift.filesChangedSince.length) items.push(`${drift.filesChangedSince.length} file${drift.filesChangedSince.length === 1 ? '' : 's'} changed`);
  if (drift.workTreeChanged) items.push('Uncommitted changes in the work tree');
  if (items.length === 0) return <p className="drift-ok">No drift: the repository is as the checkpoint left it.</p>;
  return (
    <div className="drift">
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      {drift.commitsSince.length > 0 && (
        <ul className="commits">
          {drift.commitsSince.slice(0, 8).map((c) => (
            <li key={c.hash}>
              <code>{c.hash.slice(0, 7)}</code> {c.subject}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
