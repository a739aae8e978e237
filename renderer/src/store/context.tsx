/** React access to the app store: `useApp(selector)` re-renders only when the selected slice changes. */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './app-store.js';
import type { AppState } from './types.js';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside StoreProvider');
  return store;
}

export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStore(), selector);
}
