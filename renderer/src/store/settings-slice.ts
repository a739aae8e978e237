/**
 * Settings and the MCP endpoint: loaded on start and on settings-changed, patched live. Answers
 * are applied in the order the requests were made, so a slow load never undoes a newer save.
 */
import type { McpInfo, SettingsView } from '../../../shared/api-types.js';
import { messageOf } from './errors.js';
import type { SettingsSlice, SliceCreator } from './types.js';

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get, deps) => {
  let settingsAsked = 0;
  let settingsShown = 0;
  let settingsOut = 0;
  let mcpAsked = 0;
  let mcpShown = 0;

  /** Shows a settings answer unless a newer request's answer is already shown. */
  const showSettings = (asked: number, view: SettingsView): void => {
    if (asked < settingsShown) return;
    settingsShown = asked;
    const previous = get().settingsView;
    const first = previous === null;
    set({ settingsView: view, settingsError: null, ...(first ? { target: view.settings.defaultTarget } : {}) });
    // A brief on screen was made with other settings (before the first load: with none).
    const before = previous?.settings;
    const after = view.settings;
    const briefChanged = !before || before.briefBudget !== after.briefBudget || before.redact !== after.redact;
    if (briefChanged && get().previewId && get().view === 'preview') void get().loadBrief();
  };

  /**
   * Runs a settings request with `settingsLoading` true while any is out, and shows its answer
   * before the flag drops (a brief waiting on the flag must find the settings already there).
   */
  const track = async (request: () => Promise<SettingsView>, kind: 'load' | 'save'): Promise<SettingsView> => {
    const asked = ++settingsAsked;
    settingsOut++;
    set({ settingsLoading: true });
    try {
      const view = await request();
      showSettings(asked, view);
      return view;
    } catch (err) {
      // A failed load leaves nothing to show; a failed save is reported by its caller.
      if (kind === 'load' && asked >= settingsShown) set({ settingsError: messageOf(err) });
      throw err;
    } finally {
      if (--settingsOut === 0) set({ settingsLoading: false });
    }
  };

  const showMcp = (asked: number, mcp: McpInfo): void => {
    if (asked < mcpShown) return;
    mcpShown = asked;
    set({ mcp, mcpError: null });
  };

  return {
    settingsView: null,
    settingsError: null,
    settingsLoading: false,
    mcp: null,
    mcpError: null,
    desktopStatus: null,

    async loadSettings() {
      try {
        const view = await track(() => deps.client.getSettings(), 'load');
        if (view.warning) get().notify('warning', view.warning);
      } catch {
        // Shown as settingsError by track.
      }
    },

    async updateSettings(patch) {
      try {
        await track(() => deps.client.updateSettings(patch), 'save');
        // Paths, enabled agents and exclusions change what the list shows.
        if (patch.agents || patch.excludedProjects) {
          void get().loadSessions();
          void get().refreshSources();
        }
        return true;
      } catch (err) {
        get().notify('error', `Could not save settings: ${messageOf(err)}`);
        return false;
      }
    },

    async loadMcp() {
      const asked = ++mcpAsked;
      try {
        showMcp(asked, await deps.client.mcpInfo());
      } catch (err) {
        if (asked >= mcpShown) set({ mcpError: messageOf(err) });
      }
    },

    async regenerateToken() {
      const asked = ++mcpAsked;
      try {
        showMcp(asked, await deps.client.regenerateToken());
        get().notify('info', 'New MCP token generated. Agents using the old one must be reinstalled.');
      } catch (err) {
        get().notify('error', `Could not regenerate the token: ${messageOf(err)}`);
      }
    },

    async loadDesktopStatus() {
      try {
        set({ desktopStatus: await deps.client.desktopStatus() });
      } catch {
        // Only decides whether desktop-only controls show; without it they stay hidden.
        set({ desktopStatus: null });
      }
    },
  };
};
