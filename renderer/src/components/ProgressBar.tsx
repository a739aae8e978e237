import { useApp } from '../store/context.js';
import { isBusy } from '../store/shell-slice.js';

/** Shown while the index is being built (the first pass over every store can take a while). */
export function ProgressBar() {
  const progress = useApp((s) => s.progress);
  if (!progress) return null;
  if (progress.phase === 'error') {
    return (
      <div className="index-error" role="alert">
        {progress.retryAt ? 'Indexing paused' : 'Indexing failed'}: {progress.error ?? 'unknown error'}
      </div>
    );
  }
  if (!isBusy(progress.phase)) return null;
  const fraction =
    progress.bytesTotal > 0
      ? progress.bytesDone / progress.bytesTotal
      : progress.filesTotal > 0
        ? progress.filesDone / progress.filesTotal
        : 0;
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="index-progress">
      <div
        className="index-progress-bar"
        role="progressbar"
        aria-label="Building the session index"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <span className="index-progress-label">
        {progress.phase === 'scanning' ? 'Looking for sessions…' : `Indexing ${progress.filesDone.toLocaleString()} of ${progress.filesTotal.toLocaleString()} files`}
      </span>
    </div>
  );
}
