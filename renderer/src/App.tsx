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
          <svg viewBox="0 0 16 16" width="15" height="15" aria-hidden="true"><path d="M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Zm5.4 3.3.9.7-1 1.8-1.1-.4a4.6 4.6 0 0 1-1.2.7l-.2 1.2H7.2L7 11.6a4.6 4.6 0 0 1-1.2-.7l-1.1.4-1-1.8.9-.7a4.8 4.8 0 0 1 0-1.4l-.9-.7 1-1.8 1.1.4A4.6 4.6 0 0 1 7 4.6l.2-1.2h2.1l.2 1.2a4.6 4.6 0 0 1 1.2.7l1.1-.4 1 1.8-.9.7a4.8 4.8 0 0 1 0 1.4Z" fill="none" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" /></svg>
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
