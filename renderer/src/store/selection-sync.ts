/**
 * Tells the core which session the user has selected and the brief target shown for it, so the
 * global hotkey copies what the Copy button would. Moves in the list are debounced (arrow keys move
 * fast); in the preview (opening it, switching the target) it is sent at once, so a hotkey pressed
 * right after a switch copies the new target. Sent only when it changed. Failures are ignored: the
 * hotkey then falls back to the most recent session, and headless mode has no hotkey at all.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { SelectionState } from '../../../shared/api-types.js';
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

/** What the core is told: the selected session and, with one, the target the UI shows. */
export function selectionState(state: Pick<AppState, 'view' | 'previewId' | 'rows' | 'cursor' | 'selectedId' | 'target'>): SelectionState {
  const session = selectedSession(state);
  return session === null ? { session } : { session, target: state.target };
}

const sameSelection = (a: SelectionState | undefined, b: SelectionState): boolean => a?.session === b.session && a.target === b.target;

/** Starts syncing; returns a function that stops it. */
export function syncSelection(store: StoreApi<AppState>, client: Pick<BatonClient, 'setSelection'>, delayMs = SELECTION_SYNC_DELAY_MS): () => void {
  /** What the core holds as far as we know; `undefined` after a failed send, so the next change retries. */
  let sent: SelectionState | undefined = { session: null };
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    const next = selectionState(store.getState());
    if (sameSelection(sent, next)) return;
    sent = next;
    client.setSelection(next).catch(() => {
      if (sent === next) sent = undefined;
    });
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (sameSelection(selectionState(previous), selectionState(state))) return;
    if (state.view === 'preview') return flush();
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
