/**
 * The app shell: connection state, index progress, per-agent source status, notices and the
 * core's pushed events (which refresh the list, settings and progress live).
 */
import type { ApiEvent } from '../../../shared/api-types.js';
import { isUnauthorized, messageOf } from './errors.js';
import type { ShellSlice, SliceCreator } from './types.js';

/** Bursts of sessions-changed (an agent writing a transcript) are folded into one reload. */
const RELOAD_DELAY_MS = 300;

export const createShellSlice: SliceCreator<ShellSlice> = (set, get, deps) => {
  let noticeId = 0;
  /** Source status answers apply in the order asked: an older one never replaces a newer one. */
  let sourcesAsked = 0;
  let sourcesShown = 0;
  let reloadTimer: ReturnType<typeof setTimeout> | null = null;

  const scheduleReload = (): void => {
    if (reloadTimer) return;
    reloadTimer = setTimeout(() => {
      reloadTimer = null;
      void get().loadSessions();
      void get().refreshSources();
      void get().loadUsage();
      const previewed = get().previewId;
      if (previewed) void get().loadSessionUsage(previewed);
    }, RELOAD_DELAY_MS);
  };

  const refreshAll = async (): Promise<void> => {
    try {
      const [health, progress] = await Promise.all([deps.client.health(), deps.client.indexProgress()]);
      set({ health, progress });
    } catch (err) {
      if (!isUnauthorized(err)) get().notify('error', messageOf(err));
      return;
    }
    await Promise.all([get().loadSettings(), get().loadSessions(), get().refreshSources(), get().loadUsage()]);
  };

  const handleEvent = (event: ApiEvent): void => {
    switch (event.type) {
      case 'index-progress': {
        const wasBusy = isBusy(get().progress?.phase);
        set({ progress: event.progress });
        // The first pass just finished: show everything it found.
        if (wasBusy && !isBusy(event.progress.phase)) scheduleReload();
        break;
      }
      case 'sessions-changed':
        scheduleReload();
        // A receiving agent's new session lands in the index: its handoff may now read "received".
        if (get().view === 'preview') void get().loadHandoffs();
        break;
      case 'settings-changed':
        void get().loadSettings();
        scheduleReload();
        break;
      case 'notice':
        get().notify(event.level, event.message);
        break;
      case 'usage-alert':
        // A reset is good news: told as info, kept until dismissed like every usage alert.
        get().notify(event.alert.kind === 'reset' ? 'info' : 'warning', event.alert.message, event.alert);
        void get().loadUsage();
        break;
    }
  };

  return {
    client: deps.client,
    connection: deps.transport.connection(),
    transportKind: deps.transport.kind,
    view: 'list',
    health: null,
    progress: null,
    sources: [],
    notices: [],

    init() {
      const offEvents = deps.transport.subscribe(handleEvent);
      const offConnection = deps.transport.onConnection((connection) => {
        const previous = get().connection;
        set({ connection });
        // Back after a drop or a login: events were missed, so reload what they would have changed.
        if (connection === 'connected' && previous !== 'connected' && previous !== 'connecting') void refreshAll();
      });
      void refreshAll();
      return () => {
        offEvents();
        offConnection();
        if (reloadTimer) clearTimeout(reloadTimer);
      };
    },

    setView(view) {
      set({ view });
      if (view === 'settings') {
        void get().loadSettings();
        void get().refreshSources();
        void get().loadMcp();
        void get().loadDesktopStatus();
      }
    },

    notify(level, message, alert) {
      const id = ++noticeId;
      set({ notices: [...get().notices.slice(-3), { id, level, message, ...(alert ? { alert } : {}) }] });
    },

    dismissNotice(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },

    async refreshSources() {
      const asked = ++sourcesAsked;
      try {
        const sources = await deps.client.sourceStatus();
        if (asked < sourcesShown) return;
        sourcesShown = asked;
        set({ sources });
      } catch (err) {
        if (asked >= sourcesShown && !isUnauthorized(err)) set({ sources: [] });
      }
    },
  };
};

export function isBusy(phase: string | undefined): boolean {
  return phase === 'scanning' || phase === 'indexing';
}
