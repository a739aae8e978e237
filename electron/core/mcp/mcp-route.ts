/**
 * POST /mcp for the local HTTP server (which has already checked Host, Origin, token and size).
 *
 * Stateless Streamable HTTP: every POST gets a fresh McpServer + transport and JSON responses.
 * Why stateless: Baton's tools need no server-to-client messages or per-connection state; there is
 * no session table to leak or to lose when the tray app restarts (agents keep working across a
 * restart instead of getting "session not found"), and 50 concurrent agents cost nothing between
 * calls. Building a server per request is cheap (tool registration is a few object allocations).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { HttpRoute } from '../server/http-server.js';
import type { McpCore } from './mcp-core.js';
import { createMcpServer } from './mcp-server.js';
import { redactingTransport } from './redact-outgoing.js';
import { INVALID_REQUEST, jsonRpcErrorBody, parseJsonRpcBody } from './jsonrpc-body.js';

export const MCP_PATH = '/mcp';

function sendRpcError(res: ServerResponse, status: number, code: number, message: string, id: string | number | null = null, headers: Record<string, string> = {}) {
  const body = jsonRpcErrorBody(code, message, id);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export async function handleMcpRequest(core: McpCore, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  if (req.method !== 'POST') {
    // No server-initiated stream and no sessions to delete in stateless mode.
    return sendRpcError(res, 405, INVALID_REQUEST, 'Method not allowed: send JSON-RPC messages with POST.', null, { allow: 'POST' });
  }
  const parsed = parseJsonRpcBody(body);
  if (!parsed.ok) return sendRpcError(res, 400, parsed.code, parsed.message, parsed.id);

  const server = createMcpServer(core);
  // Every response leaves through the redactor: results and errors of every tool, present or future.
  const transport = redactingTransport(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed.messages);
  } catch (err) {
    core.log?.(`mcp: request failed: ${err instanceof Error ? err.message : String(err)}`);
    if (!res.headersSent) sendRpcError(res, 500, -32603, 'Internal error', null);
    else res.end();
  }
}

export function createMcpRoute(core: McpCore): HttpRoute {
  return {
    path: MCP_PATH,
    methods: ['POST', 'GET', 'DELETE'],
    auth: true,
    handle: (req, res, body) => handleMcpRequest(core, req, res, body),
  };
}
