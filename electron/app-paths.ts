/** Where the main process finds its files, in a checkout (dist/electron/…) and in a packaged app. */
import { app } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The sandboxed preload, bundled next to main.js by `npm run build:main`. */
export const preloadPath = (): string => path.join(here, 'preload.cjs');

/** Tray and app icons (build/icons, included in the package). */
export function iconPath(name: string): string {
  return path.join(app.getAppPath(), 'build', 'icons', name);
}
