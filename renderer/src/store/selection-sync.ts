/**
 * Tells the core which session the user has selected, so the global hotkey copies that one's
 * brief. Debounced (arrow keys move fast) and sent only when it changed. Failures are ignored: the
 * hotkey then falls back to the most recent session, and headless mode has no hotkey at all.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { BatonClient } from '../../../shared/contract.js';
import type { AppState } from './types.js';

export const SELECTION_SYNC_DELAY_MS = 150;

/**
 * The session the user is looking at: the previewed one, or the highlighted row when it is the
 * user's pick (a pick hidden by a search or filter is not; then the hotkey copies the latest).
 */
export function selectedSession(state: Pick<AppState, 'view' | 'previewId' | 'rows' | 'cursor' | 'selectedId'>): string | null {
  if (state.view === 'preview') return state.previewId;
  const row = state.rows[state.cursor];
  return row !== undefined && row.id === state.selectedId ? row.id : null;
}

/** Starts syncing; returns a function that stops it. */
export function syncSelection(store: StoreApi<AppState>, client: Pick<BatonClient, 'setSelection'>, delayMs = SELECTION_SYNC_DELAY_MS): () => void {
  /** What the core holds as far as we know; `undefined` after a failed send, so the next change retries. */
  let sent: string | null | undefined = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    timer = null;
    const next = selectedSession(store.getState());
    if (next === sent) return;
    sent = next;
    client.setSelection({ session: next }).catch(() => {
      if (sent === next) sent = undefined;
    });
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (selectedSession(state) === selectedSession(previous)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
