/**
 * The window loads the built renderer from a privileged custom scheme (`baton-app://ui/…`), not
 * file://, so every response carries the same strict CSP as headless mode's HTTP server and the
 * IPC sender check has a precise origin to compare against.
 */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../core/server/static-files.js';
import { APP_SCHEME, appFileFor } from './app-assets.js';

export { APP_ORIGIN, APP_SCHEME, APP_URL } from './app-assets.js';

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
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
