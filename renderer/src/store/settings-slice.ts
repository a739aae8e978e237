/** Settings and the MCP endpoint: loaded on start and on settings-changed, patched live. */
import { messageOf } from './errors.js';
import type { SettingsSlice, SliceCreator } from './types.js';

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get, deps) => ({
  settingsView: null,
  settingsError: null,
  mcp: null,
  mcpError: null,
  desktopStatus: null,

  async loadSettings() {
    try {
      const view = await deps.client.getSettings();
      const first = get().settingsView === null;
      set({ settingsView: view, settingsError: null, ...(first ? { target: view.settings.defaultTarget } : {}) });
      if (view.warning) get().notify('warning', view.warning);
    } catch (err) {
      set({ settingsError: messageOf(err) });
    }
  },

  async updateSettings(patch) {
    try {
      const view = await deps.client.updateSettings(patch);
      set({ settingsView: view, settingsError: null });
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
    try {
      set({ mcp: await deps.client.mcpInfo(), mcpError: null });
    } catch (err) {
      set({ mcpError: messageOf(err) });
    }
  },

  async regenerateToken() {
    try {
      set({ mcp: await deps.client.regenerateToken(), mcpError: null });
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
});
