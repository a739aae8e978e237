/**
 * The app's own scheme and which built renderer file answers a URL on it. Pure (no Electron), so
 * the path rules are testable; app-protocol.ts serves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveStaticPath } from '../core/server/static-files.js';

export const APP_SCHEME = 'baton-app';
export const APP_ORIGIN = `${APP_SCHEME}://ui`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** Which file answers `url`: an existing asset, index.html for client-side routes, or null (404). */
export function appFileFor(rendererDir: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== 'ui') return null;
  const file = resolveStaticPath(rendererDir, parsed.pathname);
  if (!file) return null;
  if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  return path.extname(file) ? null : path.join(rendererDir, 'index.html');
}
