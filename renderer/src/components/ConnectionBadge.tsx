import { useApp } from '../store/context.js';

const LABELS = {
  connecting: 'Connecting…',
  connected: 'Connected',
  disconnected: 'Disconnected — retrying',
  unauthorized: 'Not logged in',
} as const;

export function ConnectionBadge() {
  const connection = useApp((s) => s.connection);
  const kind = useApp((s) => s.transportKind);
  const title = kind === 'ipc' ? 'Connected to the Baton app' : 'Live updates from baton serve';
  return (
    <span className="connection" data-state={connection} role="status" aria-live="polite" title={title}>
      <span className="connection-dot" aria-hidden="true" />
      {LABELS[connection]}
    </span>
  );
}
