/**
 * Launch at login. macOS and Windows: Electron's login items. Linux: an XDG autostart entry
 * (~/.config/autostart/baton.desktop), which Electron does not manage.
 */
import { app } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import type { DesktopStatus } from '../shared/api-types.js';

export type LoginItemStatus = NonNullable<DesktopStatus['launchAtLogin']>;

/** The autostart entry; `exec` is the command that starts Baton (quoted per the Desktop Entry spec). */
export function autostartEntry(exec: string[]): string {
  const quoted = exec.map((arg) => (/[\s"'\\$`]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, '\\$1')}"` : arg)).join(' ');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Baton', 'Comment=Switch AI coding agents mid-task', `Exec=${quoted}`, 'X-GNOME-Autostart-enabled=true', 'NoDisplay=false', ''].join('\n');
}

export function autostartFile(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'autostart', 'baton.desktop');
}

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
