/**
 * What the tray app reports about itself (global hotkey, MCP server, launch at login) so the
 * settings UI can show it. Headless mode never sets it and answers "not applicable" (mode headless).
 * The core only holds the state; the Electron main process writes it.
 */
import type { DesktopStatus } from '../../shared/api-types.js';

export const HEADLESS_STATUS: DesktopStatus = { mode: 'headless', hotkey: null, server: null, launchAtLogin: null };

export class DesktopState {
  private status: DesktopStatus = HEADLESS_STATUS;

  get(): DesktopStatus {
    return this.status;
  }

  /** Called by the Electron main process; switches the status to desktop mode. */
  update(patch: Partial<Omit<DesktopStatus, 'mode'>>): DesktopStatus {
    this.status = { ...this.status, ...patch, mode: 'desktop' };
    return this.status;
  }
}
