/**
 * The popover: one frameless window, created once, shown next to the tray icon and hidden when it
 * loses focus. Locked down: context isolation, sandbox, no Node, no navigation away from the app,
 * no new windows (http(s) links open in the browser), no permissions.
 */
import { BrowserWindow, screen, shell, type Tray } from 'electron';
import { popoverPosition } from './popover-position.js';
import { isSameOrigin } from '../app/ipc.js';
import { APP_ORIGIN } from '../app/app-protocol.js';

export const POPOVER_SIZE = { width: 420, height: 640 };

/** Popovers with a dialog of theirs open: the dialog takes focus, which must not hide them. */
const held = new WeakSet<BrowserWindow>();

/** Runs `task` (a modal dialog) with hide-on-blur suspended, then gives the popover focus back. */
export async function whilePopoverHeld<T>(win: BrowserWindow, task: () => Promise<T>): Promise<T> {
  held.add(win);
  try {
    return await task();
  } finally {
    held.delete(win);
    if (!win.isDestroyed() && win.isVisible()) win.focus();
  }
}

export function createPopoverWindow(preload: string): BrowserWindow {
  const win = new BrowserWindow({
    ...POPOVER_SIZE,
    show: false,
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    title: 'Baton',
    backgroundColor: '#00000000',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.on('blur', () => {
    if (!held.has(win) && !win.webContents.isDevToolsOpened()) win.hide();
  });
  // The popover lives as long as the app: closing it (Esc in the UI calls window.close()) hides it.
  // Quitting ends the app with app.exit(), which does not ask the window.
  win.on('close', (event) => {
    event.preventDefault();
    win.hide();
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isSameOrigin(url, APP_ORIGIN)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  return win;
}

/** Positions the popover at the tray icon (or the top-right of the cursor's display) and shows it. */
export function showPopover(win: BrowserWindow, tray: Tray | null): void {
  const bounds = tray?.getBounds() ?? { x: 0, y: 0, width: 0, height: 0 };
  const hasBounds = bounds.width > 0 && bounds.height > 0;
  const display = hasBounds ? screen.getDisplayMatching(bounds) : screen.getDisplayNearestPoint(screen.getCursorScreenPoint());
  const [width, height] = win.getSize() as [number, number];
  const position = popoverPosition({ platform: process.platform, tray: bounds, workArea: display.workArea, window: { width, height } });
  win.setPosition(position.x, position.y, false);
  win.show();
  win.focus();
}

export function togglePopover(win: BrowserWindow, tray: Tray | null): void {
  if (win.isVisible()) win.hide();
  else showPopover(win, tray);
}
