/**
 * The endpoint's guards and error handling, against the real local server with the MCP routes
 * mounted: raw HTTP requests (fetch and node:http for headers fetch will not send).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from '../../../testing/mcp/mcp-harness.js';

let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness({ start: false });
});
afterAll(async () => h.close());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ACCEPT = 'application/json, text/event-stream';

function post(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(h.server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const auth = () => ({ authorization: `Bearer ${h.token}` });

describe('guards on /mcp and /ingest', () => {
  it('accepts an initialize with the token', async () => {
    const res = await post('/mcp', JSON.stringify(INIT), auth());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'baton' } } });
  });

  it('no token → 401, wrong token → 401', async () => {
    expect((await post('/mcp', JSON.stringify(INIT))).status).toBe(401);
    expect((await post('/mcp', JSON.stringify(INIT), { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await post('/ingest', '{}')).status).toBe(401);
  });

  it('foreign Origin → 403', async () => {
    const res = await post('/mcp', JSON.stringify(INIT), { ...auth(), origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('Host: evil.example → 403 (DNS rebinding)', async () => {
    const res = await post('/mcp', JSON.stringify(INIT), { ...auth(), host: 'evil.example' });
    expect(res.status).toBe(403);
    expect((await post('/ingest', '{}', { ...auth(), host: 'evil.example:8765' })).status).toBe(403);
  });

  it('2 MB body → 413, read by the client every time (never a connection reset)', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    for (let i = 0; i < 10; i++) {
      const res = await post('/mcp', big, auth());
      expect(res.status).toBe(413);
      expect(res.body).not.toMatch(/at .*\.ts/);
      expect((await post('/ingest', big, auth())).status).toBe(413);
    }
  });
});

describe('malformed JSON-RPC', () => {
  it('invalid JSON → 400 with -32700', async () => {
    const res = await post('/mcp', '{"jsonrpc": "2.0", "method": ', auth());
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32700);
    expect(res.body).not.toMatch(/\n\s+at /);
  });

  it('not a JSON-RPC message → 400 with -32600', async () => {
    for (const bad of ['{"hello": "world"}', '[]', '42', '{"jsonrpc":"1.0","method":"x","id":1}']) {
      const res = await post('/mcp', bad, auth());
      expect(res.status, bad).toBe(400);
      expect((JSON.parse(res.body) as { error: { code: number } }).error.code, bad).toBe(-32600);
    }
  });

  it('unknown method → JSON-RPC method-not-found, not a crash', async () => {
    await post('/mcp', JSON.stringify(INIT), auth());
    const res = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such', params: {} }), auth());
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32601 } });
  });

  it('GET /mcp → 405 (stateless: no server stream)', async () => {
    const res = await fetch(h.url, { headers: { ...auth(), accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('/ingest validation', () => {
  it('rejects bad JSON and bad payloads with 400 and a message', async () => {
    const bad = await post('/ingest', 'nope', auth());
    expect(bad.status).toBe(400);
    const invalid = await post('/ingest', JSON.stringify({ agent: 'vim', session_id: '' }), auth());
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toMatchObject({ error: { code: 'bad_request' } });
    expect(invalid.body).toMatch(/session_id/);
  });
});
