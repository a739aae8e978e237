// The headless server for real: a core on a temp data dir, a server on 127.0.0.1, raw HTTP requests.
import http from 'node:http';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../service.js';
import { startLocalServer, type LocalServer } from '../local-server.js';
import { PortInUseError } from './http-server.js';
import { makeTempDir } from '../../../testing/fixture-home.js';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (options.body) req.end(options.body);
    else req.end();
  });
}

/** POSTs `body` in 64 KB chunks with Transfer-Encoding: chunked (no Content-Length). */
function chunked(port: number, path: string, body: Buffer, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    req.end();
  });
}

/** POSTs with `Expect: 100-continue`, sending the body only when the server says continue. */
function expectContinue(port: number, path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; bodySent: boolean }> {
  return new Promise((resolve, reject) => {
    let bodySent = false;
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host: `127.0.0.1:${port}`, expect: '100-continue', 'content-length': String(body.length), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bodySent }));
      },
    );
    req.on('continue', () => {
      bodySent = true;
      req.end(body);
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('headless HTTP server', () => {
  const temp = makeTempDir();
  let core: BatonCore;
  let server: LocalServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    core = await createBatonCore({ dataDir: temp.dir, environment: { env: {}, platform: 'linux', home: temp.dir }, log: () => {} });
    server = await startLocalServer(core, 0);
    auth = { authorization: `Bearer ${core.tokens.get()}` };
  });
  afterAll(async () => {
    await server.close();
    await core.close();
    temp.cleanup();
  });

  it('binds to 127.0.0.1 and answers /health without a token, revealing nothing private', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const reply = await request(server.port, '/health');
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true, name: 'baton' });
    expect(reply.body).not.toContain(core.tokens.get());
    expect(reply.body).not.toContain(temp.dir);
  });

  it('refuses API calls without the token (401) and serves them with it (200)', async () => {
    expect((await request(server.port, '/api/getSettings', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await request(server.port, '/api/getSettings', { method: 'POST', body: '{}', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const ok = await request(server.port, '/api/getSettings', { method: 'POST', body: '{}', headers: auth });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ settings: { port: 8765 }, dataDir: temp.dir });
  });

  it('refuses foreign Origin and Host (DNS-rebinding defence) with 403, even with the token', async () => {
    const evilOrigin = await request(server.port, '/api/getSettings', { method: 'POST', body: '{}', headers: { ...auth, origin: 'http://evil.example' } });
    expect(evilOrigin.status).toBe(403);
    const evilHost = await request(server.port, '/api/getSettings', { method: 'POST', body: '{}', headers: { ...auth, host: 'evil.example' } });
    expect(evilHost.status).toBe(403);
    expect((await request(server.port, '/health', { headers: { host: 'evil.example' } })).status).toBe(403);
    const ownOrigin = await request(server.port, '/api/health', { method: 'POST', body: '{}', headers: { ...auth, origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` } });
    expect(ownOrigin.status).toBe(200);
  });

  it('refuses a body over 1 MB with a 413 the client always reads (never a reset), however it is sent', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    for (let i = 0; i < 15; i++) {
      // Node's client with Content-Length, no Expect: it is still sending when the server decides.
      const sized = await request(server.port, '/api/getSettings', { method: 'POST', body: big, headers: auth });
      expect(sized.status).toBe(413);
      expect(JSON.parse(sized.body).error.message).toBe('Request body larger than 1048576 bytes.');
      // Chunked, no length declared: refused once past the limit.
      expect((await chunked(server.port, '/api/getSettings', big, auth)).status).toBe(413);
      // fetch (undici).
      const viaFetch = await fetch(`${server.url}/api/getSettings`, { method: 'POST', body: big, headers: auth });
      expect(viaFetch.status).toBe(413);
      await viaFetch.arrayBuffer();
    }
    // Expect: 100-continue: refused before the body is sent.
    const expecting = await expectContinue(server.port, '/api/getSettings', big, auth);
    expect(expecting).toEqual({ status: 413, bodySent: false });
    const small = await expectContinue(server.port, '/api/getSettings', Buffer.from('{}'), auth);
    expect(small).toEqual({ status: 200, bodySent: true });
  });

  it('rejects bodies over 1 MB with 413, bad JSON and bad input with 400, unknown calls with 404', async () => {
    const big = await request(server.port, '/api/getSettings', { method: 'POST', body: Buffer.alloc(2 * 1024 * 1024, 0x20), headers: auth });
    expect(big.status).toBe(413);
    const badJson = await request(server.port, '/api/getSettings', { method: 'POST', body: '{"a":', headers: auth });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body).error.code).toBe('bad_request');
    const badInput = await request(server.port, '/api/updateSettings', { method: 'POST', body: '{"port":"x"}', headers: auth });
    expect(badInput.status).toBe(400);
    expect(JSON.parse(badInput.body).error.message).toMatch(/port/);
    const unknown = await request(server.port, '/api/dropTables', { method: 'POST', body: '{}', headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('logs in once through the one-time URL with an HttpOnly SameSite=Strict cookie', async () => {
    const loginPath = new URL(server.newLoginUrl()).pathname + new URL(server.newLoginUrl()).search;
    const first = await request(server.port, loginPath);
    expect(first.status).toBe(302);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const again = await request(server.port, loginPath);
    expect(again.status).toBe(401);
    const withCookie = await request(server.port, '/api/mcpInfo', { method: 'POST', body: '{}', headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(withCookie.status).toBe(200);
  });

  it('persists settings changes atomically and streams a settings-changed event', async () => {
    const events = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: `127.0.0.1:${server.port}`, ...auth } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes('settings-changed')) {
            req.destroy();
            resolve(text);
          }
        });
        void request(server.port, '/api/updateSettings', { method: 'POST', body: '{"briefBudget":8000}', headers: auth });
      });
      req.on('error', (err) => (err.message.includes('aborted') ? undefined : reject(err)));
      req.end();
    });
    expect(events).toContain('"type":"settings-changed"');
    const saved = JSON.parse(fs.readFileSync(`${temp.dir}/settings.json`, 'utf8')) as { briefBudget: number };
    expect(saved.briefBudget).toBe(8000);
  });

  it('says which port is busy and how to change it', async () => {
    const error = await startLocalServer(core, server.port).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(PortInUseError);
    expect(String((error as Error).message)).toMatch(new RegExp(`Port ${server.port}.*--port`));
  });

  it('stores the token with mode 0600', () => {
    expect(fs.statSync(core.tokens.file).mode & 0o777).toBe(0o600);
  });
});
