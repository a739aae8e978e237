/**
 * The MCP boundary: every message Baton's MCP server sends (tool results, tool errors, JSON-RPC
 * errors, and whatever a future tool or capability returns) passes the one redactor on its way
 * out. An agent forwards each tool result to its model provider, so there is no flag to turn this
 * off: a person who wants a value reads it in the UI or with the CLI's `--no-redact`.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { redactForOutput } from '../redaction/redact.js';

/**
 * A text item that holds JSON (most tool results) is redacted as data, then serialised again:
 * redacting the serialised form would miss a secret after an escaped `\n` (`\nAKIA…` has no word
 * boundary before the key).
 */
async function redactText(text: string): Promise<string> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(await redactForOutput(JSON.parse(text) as unknown), null, 2);
    } catch {
      // Not JSON after all: redacted as text below.
    }
  }
  return redactForOutput(text);
}

async function redactContent(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(redactContent));
  if (!value || typeof value !== 'object') return typeof value === 'string' ? redactForOutput(value) : value;
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, v]) => [key, key === 'text' && typeof v === 'string' ? await redactText(v) : await redactContent(v)] as const),
  );
  return Object.fromEntries(entries);
}

/** The message with its `result` or `error` redacted; `id` and `jsonrpc` stay as they are (the client matches on them). */
export async function redactMessage(message: JSONRPCMessage): Promise<JSONRPCMessage> {
  const out: Record<string, unknown> = { ...message };
  if ('result' in message) out.result = await redactContent(message.result);
  if ('error' in message) out.error = await redactContent(message.error);
  if ('params' in message) out.params = await redactContent(message.params); // notifications, e.g. logging
  return out as JSONRPCMessage;
}

/** `transport`, with every outgoing message redacted (set before the server connects). */
export function redactingTransport<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => send(await redactMessage(message), options);
  return transport;
}
