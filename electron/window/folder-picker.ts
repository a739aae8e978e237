/**
 * The folder picker the Electron main process registers with the core (DesktopState), for the
 * "Browse…" buttons of the store paths. Written against a minimal `showOpenDialog` (Electron's
 * dialog has this shape) so the options and the cancel handling are testable without Electron.
 */
import type { FolderPicker, FolderPickOptions } from '../core/desktop-state.js';

export interface OpenDialogOptionsLike {
  title?: string;
  defaultPath?: string;
  buttonLabel?: string;
  properties: ('openDirectory' | 'showHiddenFiles' | 'createDirectory')[];
}

export type ShowOpenDialog = (options: OpenDialogOptionsLike) => Promise<{ canceled: boolean; filePaths: string[] }>;

/** Agent stores live in dot-folders (~/.claude, ~/.codex), so hidden folders are shown. */
export function folderDialogOptions(options: FolderPickOptions): OpenDialogOptionsLike {
  return {
    title: options.title ?? 'Choose a folder',
    ...(options.defaultPath ? { defaultPath: options.defaultPath } : {}),
    buttonLabel: 'Choose',
    properties: ['openDirectory', 'showHiddenFiles'],
  };
}

export function createFolderPicker(showOpenDialog: ShowOpenDialog): FolderPicker {
  return async (options) => {
    const result = await showOpenDialog(folderDialogOptions(options));
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
}
