/**
 * The checks every request to the local server passes before any handler runs. Pure functions of
 * the request's headers, so they are unit-tested without a socket.
 *
 * Why Host and Origin: a web page on evil.example can make the browser send requests to
 * 127.0.0.1 (DNS rebinding, or plain cross-origin form posts). Such requests carry a foreign
 * Host or Origin; our own UI and local agents never do.
 */
import { AUTH_COOKIE } from '../../../shared/bridge.js';

export interface GuardInput {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  cookie: string | undefined;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function checkHostAndOrigin(input: GuardInput, port: number): GuardVerdict {
  const hosts = allowedHosts(port);
  if (!input.host || !hosts.includes(input.host.toLowerCase())) {
    return { ok: false, status: 403, message: `Forbidden: Host must be one of ${hosts.join(', ')}.` };
  }
  if (input.origin !== undefined && !hosts.map((h) => `http://${h}`).includes(input.origin.toLowerCase())) {
    return { ok: false, status: 403, message: 'Forbidden: cross-origin requests are not allowed.' };
  }
  return { ok: true };
}

/** The bearer token of a request (`Authorization: Bearer <token>`): what agents and the CLI send. */
export function bearerToken(input: GuardInput): string | null {
  const auth = input.authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return auth?.[1] ?? null;
}

/** The browser UI's login cookie, set by a one-time login link. */
export function uiCookie(input: GuardInput): string | null {
  return readCookie(input.cookie, AUTH_COOKIE);
}

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/**
 * The cookie holds the UI's own secret, never the MCP token: agents hold that token (it is in their
 * MCP configs), and the UI may do what they may not (reveal redacted secrets).
 */
export function authCookie(uiSecret: string): string {
  return `${AUTH_COOKIE}=${encodeURIComponent(uiSecret)}; HttpOnly; SameSite=Strict; Path=/`;
}
