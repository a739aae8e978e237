import { useEffect } from 'react';
import { useApp } from '../store/context.js';
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
  useEffect(() => {
    const timer = setTimeout(onDismiss, notice.level === 'error' ? 9000 : 3500);
    return () => clearTimeout(timer);
  }, [notice.id, notice.level, onDismiss]);
  return (
    <div className="notice" data-level={notice.level}>
      <span>{notice.message}</span>
      <button type="button" className="notice-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
