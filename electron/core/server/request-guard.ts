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

/** The token presented by a request: `Authorization: Bearer <token>` or the login cookie. */
export function presentedToken(input: GuardInput): string | null {
  const auth = input.authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (auth?.[1]) return auth[1];
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

export function authCookie(token: string): string {
  return `${AUTH_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
