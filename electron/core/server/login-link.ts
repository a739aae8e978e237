/**
 * Fresh one-time login links for the browser UI. The codes live in the running server's memory,
 * so `baton login-link` asks that server (loopback, with the token) instead of making one itself.
 */
import type { HttpRoute } from './http-server.js';
import { sendJson } from './http-io.js';

export const LOGIN_LINK_PATH = '/login-link';

export interface LoginLink {
  url: string;
}

/**
 * POST /login-link (the UI's secret required, not the agents' token: a login can reveal secrets)
 * → { url }: a new link that opens the UI once.
 */
export function loginLinkRoute(newLoginUrl: () => string): HttpRoute {
  return {
    path: LOGIN_LINK_PATH,
    methods: ['POST'],
    auth: 'ui',
    handle: async (_req, res) => sendJson(res, 200, { url: newLoginUrl() } satisfies LoginLink),
  };
}

export class LoginLinkError extends Error {}

/** Asks the Baton serving on 127.0.0.1:`port` for a fresh login link with the UI's secret; errors say what to do. */
export async function requestLoginLink(port: number, token: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}${LOGIN_LINK_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } catch {
    throw new LoginLinkError(`No Baton is listening on 127.0.0.1:${port}. Start it with \`baton serve\` (or the desktop app), or pass the port it uses with --port.`);
  }
  if (res.status === 401) {
    throw new LoginLinkError(`The Baton on 127.0.0.1:${port} does not accept this login secret: it uses another data folder (BATON_HOME), or another program holds that port.`);
  }
  const body = (await res.json().catch(() => null)) as Partial<LoginLink> | null;
  if (!res.ok || typeof body?.url !== 'string') {
    throw new LoginLinkError(`The program on 127.0.0.1:${port} did not answer like Baton (HTTP ${res.status}); is it an older Baton? Restart it.`);
  }
  return body.url;
}
