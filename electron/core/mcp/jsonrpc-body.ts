/**
 * Parsing the body of a POST /mcp ourselves, so malformed input gets a proper JSON-RPC error
 * (HTTP 400, -32700 parse error or -32600 invalid request) and never reaches the SDK as garbage.
 */
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export type BodyParse =
  | { ok: true; messages: JSONRPCMessage | JSONRPCMessage[] }
  | { ok: false; code: number; message: string; id: string | number | null };

function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function parseJsonRpcBody(body: Buffer): BodyParse {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    const why = err instanceof SyntaxError ? err.message : 'not JSON';
    return { ok: false, code: PARSE_ERROR, message: `Parse error: the body is not valid JSON (${why}).`, id: null };
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return { ok: false, code: INVALID_REQUEST, message: 'Invalid Request: empty batch.', id: null };
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) {
      return {
        ok: false,
        code: INVALID_REQUEST,
        message: 'Invalid Request: expected a JSON-RPC 2.0 message ({"jsonrpc":"2.0","method":…,"id":…}).',
        id: idOf(item),
      };
    }
    messages.push(parsed.data);
  }
  return { ok: true, messages: Array.isArray(value) ? messages : messages[0]! };
}

export function jsonRpcErrorBody(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
}
