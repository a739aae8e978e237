/** The shell: header, progress, the current view (list, preview, settings), notices, key handling. */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ConnectionBadge } from './components/ConnectionBadge.js';
import { Notices } from './components/Notices.js';
import { ProgressBar } from './components/ProgressBar.js';
import { useKeyboard } from './hooks/use-keyboard.js';
import { useTheme } from './hooks/use-theme.js';
import { useApp, useAppStore } from './store/context.js';
import { ListView } from './views/ListView.js';
import { LoginRequired } from './views/LoginRequired.js';
import { PreviewView } from './views/PreviewView.js';
import { SettingsView } from './views/SettingsView.js';

export function App() {
  const store = useAppStore();
  const { view, connection } = useApp(useShallow((s) => ({ view: s.view, connection: s.connection })));
  useEffect(() => store.getState().init(), [store]);
  useTheme();
  useKeyboard();

  if (connection === 'unauthorized') return <LoginRequired />;

  return (
    <div className="app" data-view={view}>
      <header className="titlebar">
        <span className="brand" aria-hidden="true">
          <svg viewBox="0 0 16 16" width="14" height="14"><path d="M3 13 13 3M9 3h4v4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /></svg>
        </span>
        <h1 className="brand-name">Baton</h1>
        <ConnectionBadge />
        <button
          type="button"
          className="icon-button"
          aria-label="Settings"
          aria-pressed={view === 'settings'}
          title="Settings (Ctrl+,)"
          onClick={() => store.getState().setView(view === 'settings' ? 'list' : 'settings')}
        >
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            <circle cx="8" cy="8" r="5.4" fill="none" stroke="currentColor" strokeWidth="2.4" strokeDasharray="2.12 2.12" />
            <circle cx="8" cy="8" r="4.1" fill="none" stroke="currentColor" strokeWidth="1.4" />
            <circle cx="8" cy="8" r="1.6" fill="currentColor" />
          </svg>
        </button>
      </header>
      <ProgressBar />
      <main className="content">
        {view === 'list' && <ListView />}
        {view === 'preview' && <PreviewView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <Notices />
    </div>
  );
}
