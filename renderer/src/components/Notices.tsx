import { useEffect } from 'react';
import { AGENT_LABELS } from '../../../shared/model.js';
import { useApp, useAppStore } from '../store/context.js';
import type { Notice } from '../store/types.js';

export function Notices() {
  const notices = useApp((s) => s.notices);
  const dismiss = useApp((s) => s.dismissNotice);
  const copyStatus = useApp((s) => s.copyStatus);
  return (
    <div className="notices" role="status" aria-live="polite">
      {copyStatus !== null && (
        <div className="notice" data-level="info" aria-busy="true">
          <span>{copyStatus}</span>
        </div>
      )}
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} onDismiss={() => dismiss(n.id)} />
      ))}
    </div>
  );
}

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  const store = useAppStore();
  const alert = notice.alert;
  useEffect(() => {
    // A usage alert waits for the user: its action is the point of it.
    if (alert) return;
    const timer = setTimeout(onDismiss, notice.level === 'error' ? 9000 : 3500);
    return () => clearTimeout(timer);
  }, [notice.id, notice.level, onDismiss, alert]);
  return (
    <div className="notice" data-level={notice.level} data-alert={alert?.kind}>
      <span>{notice.message}</span>
      {alert && alert.kind !== 'reset' && (
        <button
          type="button"
          className="notice-action"
          onClick={() => {
            onDismiss();
            void store.getState().handOffAlert(alert);
          }}
        >
          Hand off to {alert.suggestedTarget ? AGENT_LABELS[alert.suggestedTarget] : 'another agent'}
        </button>
      )}
      <button type="button" className="notice-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
