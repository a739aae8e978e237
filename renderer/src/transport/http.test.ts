/**
 * The HTTP transport against a real HTTP server on 127.0.0.1 (Node's fetch plays the browser):
 * JSON calls, error mapping, the 401 → "unauthorized" switch, and the event stream with reconnect.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/contract.js';
import type { ApiEvent } from '../../../shared/api-types.js';
import { createHttpTransport } from './http.js';
import type { ConnectionState } from './types.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function waitFor<T>(get: () => T | undefined, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = get();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > ms) reject(new Error('timed out'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

describe('HTTP transport calls', () => {
  it('POSTs JSON to /api/<method> and returns the parsed result', async () => {
    const seen: { method?: string; url?: string; body?: string; type?: string } = {};
    const base = await serve((req, res, body) => {
      Object.assign(seen, { method: req.method, url: req.url, body, type: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sessions: [], total: 0 }));
    });
    const transport = createHttpTransport({ baseUrl: base });
    await expect(transport.invoke('listSessions', { limit: 5 })).resolves.toEqual({ sessions: [], total: 0 });
    expect(seen).toEqual({ method: 'POST', url: '/api/listSessions', body: '{"limit":5}', type: 'application/json' });
  });

  it('turns error bodies into ApiError with the server’s code and message', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'No session matches "zzz".' } }));
    });
    const error = await createHttpTransport({ baseUrl: base }).invoke('getSession', { session: 'zzz' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No session matches "zzz".' });
  });

  it('maps bodies without our shape by status', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('Forbidden: Host must be one of 127.0.0.1:1');
    });
    const error = await createHttpTransport({ baseUrl: base }).invoke('health', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'forbidden' });
    expect((error as Error).message).toContain('HTTP 403');
    expect((error as Error).message).toContain('Forbidden: Host');
  });

  it('flips to unauthorized on a 401', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Log in first.' } }));
    });
    const transport = createHttpTransport({ baseUrl: base });
    const states: ConnectionState[] = [];
    transport.onConnection((s) => states.push(s));
    await expect(transport.invoke('health', {})).rejects.toMatchObject({ code: 'unauthorized' });
    expect(transport.connection()).toBe('unauthorized');
    expect(states).toEqual(['unauthorized']);
  });

  it('explains an unreachable server', async () => {
    const base = await serve(() => undefined);
    await new Promise((r) => { servers[0]!.close(r); servers.length = 0; });
    const error = await createHttpTransport({ baseUrl: base }).invoke('health', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal' });
    expect((error as Error).message).toContain('Cannot reach the Baton server');
  });
});

describe('HTTP transport events', () => {
  it('delivers events, reports connected, and reconnects after a drop', async () => {
    let connections = 0;
    const base = await serve((req, res) => {
      if (req.url !== '/api/events') return res.end();
      connections += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': connected\n\n');
      const event: ApiEvent = { type: 'sessions-changed', sessionIds: [`claude:${connections}`] };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      if (connections === 1) setTimeout(() => res.end(), 20); // drop the first stream
    });
    const transport = createHttpTransport({ baseUrl: base, retryDelays: [20] });
    const events: ApiEvent[] = [];
    const states: ConnectionState[] = [];
    transport.onConnection((s) => states.push(s));
    const off = transport.subscribe((e) => events.push(e));
    await waitFor(() => (events.length >= 2 ? true : undefined));
    off();
    expect(events).toEqual([
      { type: 'sessions-changed', sessionIds: ['claude:1'] },
      { type: 'sessions-changed', sessionIds: ['claude:2'] },
    ]);
    expect(states.slice(0, 3)).toEqual(['connected', 'disconnected', 'connected']);
  });

  it('reports unauthorized when the event stream is refused, and recovers after login', async () => {
    let loggedIn = false;
    const base = await serve((_req, res) => {
      if (!loggedIn) {
        res.writeHead(401);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': ok\n\n');
    });
    const transport = createHttpTransport({ baseUrl: base, retryDelays: [20] });
    const off = transport.subscribe(() => undefined);
    await waitFor(() => (transport.connection() === 'unauthorized' ? true : undefined));
    loggedIn = true;
    await waitFor(() => (transport.connection() === 'connected' ? true : undefined));
    off();
  });
});
