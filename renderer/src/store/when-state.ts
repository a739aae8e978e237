/**
 * Waiting on the store: an action that needs a load to finish first (a brief, a search, the
 * settings) waits for it here instead of acting on what happens to be loaded at that instant.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { AppState } from './types.js';

export type StateWatch = Pick<StoreApi<AppState>, 'getState' | 'subscribe'>;

/** Resolves with the first state for which `ready` holds: at once when it already does. */
export function whenState(store: StateWatch, ready: (state: AppState) => boolean): Promise<AppState> {
  const now = store.getState();
  if (ready(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = store.subscribe((state) => {
      if (!ready(state)) return;
      stop();
      resolve(state);
    });
  });
}

/** The first settings load is still out: briefs wait for it (target, budget and redaction come from it). */
export function settingsPending(state: Pick<AppState, 'settingsView' | 'settingsLoading'>): boolean {
  return state.settingsView === null && state.settingsLoading;
}
