/**
 * Launch at login. macOS and Windows: Electron's login items. Linux: an XDG autostart entry
 * (~/.config/autostart/baton.desktop), which Electron does not manage.
 */
import { app } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import type { DesktopStatus } from '../../shared/api-types.js';
import { autostartEntry, autostartFile } from './autostart-entry.js';

export type LoginItemStatus = NonNullable<DesktopStatus['launchAtLogin']>;

export function applyLoginItem(enabled: boolean): LoginItemStatus {
  try {
    if (process.platform === 'linux') {
      const file = autostartFile(process.env, app.getPath('home'));
      if (enabled) {
        // APPIMAGE is the real file when running from an AppImage (execPath is inside its mount).
        const exec = process.env.APPIMAGE ? [process.env.APPIMAGE] : app.isPackaged ? [process.execPath] : [process.execPath, app.getAppPath()];
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, autostartEntry(exec));
      } else {
        fs.rmSync(file, { force: true });
      }
    } else {
      // Baton starts hidden anyway (tray only), so no "open as hidden" flag is needed.
      app.setLoginItemSettings({ openAtLogin: enabled });
    }
    return { enabled, error: null };
  } catch (err) {
    return { enabled: false, error: `Launch at login could not be ${enabled ? 'enabled' : 'disabled'}: ${(err as Error).message}` };
  }
}
