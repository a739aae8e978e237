/**
 * What the tray app reports about itself (global hotkey, MCP server, launch at login) so the
 * settings UI can show it. Headless mode never sets it and answers "not applicable" (mode headless).
 * The core only holds the state; the Electron main process writes it.
 *
 * Also what the UI tells the tray app: the selected session (the global hotkey copies its brief),
 * and the folder picker Electron registers (the core never imports electron; headless has none).
 */
import type { DesktopStatus, FolderPick } from '../../shared/api-types.js';
import type { BriefTarget } from '../../shared/settings.js';

export const HEADLESS_STATUS: DesktopStatus = { mode: 'headless', hotkey: null, server: null, launchAtLogin: null };

export interface FolderPickOptions {
  title?: string;
  defaultPath?: string;
}

/** Shows a folder dialog; resolves to the chosen folder, or null when cancelled. */
export type FolderPicker = (options: FolderPickOptions) => Promise<string | null>;

export class DesktopState {
  private status: DesktopStatus = HEADLESS_STATUS;
  private selected: string | null = null;
  private selectedTarget: BriefTarget | null = null;
  private folderPicker: FolderPicker | null = null;
  /** The dialog open now: a second request (a double click) shares it instead of opening another. */
  private picking: Promise<FolderPick> | null = null;

  get(): DesktopStatus {
    return this.status;
  }

  /** Called by the Electron main process; switches the status to desktop mode. */
  update(patch: Partial<Omit<DesktopStatus, 'mode'>>): DesktopStatus {
    this.status = { ...this.status, ...patch, mode: 'desktop' };
    return this.status;
  }

  /** The session id the UI has selected, or null. It may have left the index since; callers check. */
  selection(): string | null {
    return this.selected;
  }

  /** The brief target the UI shows for the selection; null when none is selected or none was said. */
  selectionTarget(): BriefTarget | null {
    return this.selectedTarget;
  }

  setSelection(sessionId: string | null, target: BriefTarget | null = null): void {
    this.selected = sessionId;
    this.selectedTarget = sessionId === null ? null : target;
  }

  /** Called by the Electron main process at startup; null removes it. */
  setFolderPicker(picker: FolderPicker | null): void {
    this.folderPicker = picker;
  }

  pickFolder(options: FolderPickOptions): Promise<FolderPick> {
    const picker = this.folderPicker;
    if (!picker) return Promise.resolve({ path: null, available: false });
    this.picking ??= picker(options)
      .then((path) => ({ path, available: true }))
      .finally(() => {
        this.picking = null;
      });
    return this.picking;
  }
}
