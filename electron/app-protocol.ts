/**
 * The window loads the built renderer from a privileged custom scheme (`baton-app://ui/…`), not
 * file://, so every response carries the same strict CSP as headless mode's HTTP server and the
 * IPC sender check has a precise origin to compare against.
 */
import { net, protocol } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY, resolveStaticPath } from './core/server/static-files.js';

export const APP_SCHEME = 'baton-app';
export const APP_ORIGIN = `${APP_SCHEME}://ui`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Which file answers `url`: an existing asset, index.html for client-side routes, or null (404). */
export function appFileFor(rendererDir: string, url: string): string | null {
  const parsed = new URL(url);
  if (parsed.host !== 'ui') return null;
  const file = resolveStaticPath(rendererDir, parsed.pathname);
  if (!file) return null;
  if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  return path.extname(file) ? null : path.join(rendererDir, 'index.html');
}

export function serveApp(rendererDir: string | null): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (!rendererDir) {
      return new Response('The Baton UI is not built. Run `npm run build`.', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    const file = appFileFor(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', CONTENT_SECURITY_POLICY);
    headers.set('x-content-type-options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
