/**
 * The HTTP API (what the UI uses in headless mode) and the Electron IPC dispatch redact every result
 * and error; only the UI's login, asking explicitly (`?reveal=1`), sees secrets. The agents' token
 * can neither reveal nor turn itself into a UI login. Real server on 127.0.0.1, real fixture sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { leakedSecrets, SECRET_SESSION_IDS, SECRETS, writeSecretSessions } from '../../../testing/secret-sessions.js';
import { dispatchIpc } from '../../app/ipc.js';

let h: McpHarness;
let uiCookie: string;
const first = `claude:${SECRET_SESSION_IDS[0]}`;

async function api(method: string, body: unknown, headers: Record<string, string>, query = ''): Promise<{ status: number; text: string }> {
  const res = await fetch(`${h.server.url}/api/${method}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}
const bearer = () => ({ authorization: `Bearer ${h.token}` });
const ui = () => ({ cookie: uiCookie });

beforeAll(async () => {
  h = await startMcpHarness({ prepare: (home) => writeSecretSessions(home.home) });
  const login = await fetch(h.server.newLoginUrl(), { redirect: 'manual' });
  expect(login.status).toBe(302);
  uiCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
}, 60_000);
afterAll(async () => h.close());

describe('the HTTP API redacts at the boundary', () => {
  it('lists, searches, previews and briefs without secrets, for the token and for the UI alike', async () => {
    for (const headers of [bearer(), ui()]) {
      const calls = await Promise.all([
        api('listSessions', { project: 'vault-app' }, headers),
        api('search', { query: 'quokkarelay' }, headers),
        api('getSession', { session: first }, headers),
        api('getMessages', { session: first }, headers),
        // Asking the brief itself not to redact changes nothing at the boundary.
        api('generateBrief', { session: first, redact: false }, headers),
      ]);
      for (const c of calls) {
        expect(c.status, c.text).toBe(200);
        expect(leakedSecrets(c.text)).toEqual([]);
      }
      expect(calls[1]!.text).toContain(first); // found by the word next to the key
      expect(calls[1]!.text).toContain('[REDACTED:openai_api_key]');
    }
  });

  it('errors are redacted too: the "ambiguous" one lists masked titles', async () => {
    const res = await api('getSession', { session: 'zebrafinch' }, bearer());
    expect(res.status).toBe(409);
    expect(res.text).toContain(first);
    expect(leakedSecrets(res.text)).toEqual([]);
  });

  it('the UI login reveals on an explicit ?reveal=1; the agents\' token is refused', async () => {
    const revealed = await api('generateBrief', { session: first, redact: false }, ui(), '?reveal=1');
    expect(revealed.status).toBe(200);
    expect(revealed.text).toContain(SECRETS.github);
    expect(revealed.text).toContain(SECRETS.awsSecret);
    const session = await api('getSession', { session: first }, ui(), '?reveal=1');
    expect(session.text).toContain(SECRETS.github);

    const refused = await api('getSession', { session: first }, bearer(), '?reveal=1');
    expect(refused.status).toBe(403);
    expect(leakedSecrets(refused.text)).toEqual([]);
    // The token in the cookie's place is not a UI login.
    const forged = await api('getSession', { session: first }, { cookie: `baton_token=${h.token}` }, '?reveal=1');
    expect(forged.status).toBe(401);
  });

  it('the agents\' token cannot become a UI login (no /login?token=, no /login-link)', async () => {
    expect((await fetch(`${h.server.url}/login?token=${h.token}`, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(`${h.server.url}/login-link`, { method: 'POST', headers: bearer() })).status).toBe(401);
  });
});

describe('the Electron IPC dispatch redacts the same way', () => {
  const trusted = { isTrustedSender: () => true };
  it('masks by default and reveals only when the UI asks', async () => {
    const masked = await dispatchIpc(h.core.api, 'getSession', { session: first }, 'baton-app://ui/', trusted);
    expect(masked.ok).toBe(true);
    expect(leakedSecrets(JSON.stringify(masked))).toEqual([]);
    const revealed = await dispatchIpc(h.core.api, 'getSession', { session: first }, 'baton-app://ui/', trusted, { reveal: true });
    expect(JSON.stringify(revealed)).toContain(SECRETS.github);
    const ambiguous = await dispatchIpc(h.core.api, 'getSession', { session: 'zebrafinch' }, 'baton-app://ui/', trusted);
    expect(ambiguous.ok).toBe(false);
    expect(leakedSecrets(JSON.stringify(ambiguous))).toEqual([]);
  });
});
