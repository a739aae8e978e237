/** One zustand store for the renderer, assembled from its slices. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createListSlice } from './list-slice.js';
import { createPreviewSlice } from './preview-slice.js';
import { createSettingsSlice } from './settings-slice.js';
import { createShellSlice } from './shell-slice.js';
import { createUsageSlice } from './usage-slice.js';
import { syncSelection } from './selection-sync.js';
import type { AppDeps, AppState } from './types.js';

export type AppStore = StoreApi<AppState>;

export function createAppStore(deps: AppDeps): AppStore {
  const store = createStore<AppState>()((set, get, api) => ({
    ...createShellSlice(set, get, deps, api),
    ...createListSlice(set, get, deps, api),
    ...createPreviewSlice(set, get, deps, api),
    ...createSettingsSlice(set, get, deps, api),
    ...createUsageSlice(set, get, deps, api),
  }));
  // For the store's lifetime (the page's): the core learns the selection for the global hotkey.
  syncSelection(store, deps.client, deps.selectionSyncMs);
  return store;
}
