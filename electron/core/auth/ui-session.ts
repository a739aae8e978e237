/**
 * The browser UI's login secret: what a login link's cookie holds. It is a second secret beside the
 * MCP token because agents hold that token (it is written into their MCP configs) and the UI may
 * do one thing they may not: reveal redacted secrets. Kept like the token (data dir, mode 0600),
 * so a logged-in browser stays logged in across restarts; only local processes of the user read it
 * (`baton login-link`).
 */
import { TokenStore } from './token-store.js';

export const UI_SESSION_FILE = 'ui-session';

export function uiSessionStore(dataDir: string): TokenStore {
  return new TokenStore(dataDir, UI_SESSION_FILE);
}
