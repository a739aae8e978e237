/**
 * `POST /api/<method>`: the contract over HTTP. Validation, dispatch and error mapping are generic
 * over the contract; no per-method code lives here.
 */
import type { ServerResponse } from 'node:http';
import { ApiError, isApiMethod, parseApiInput, type ApiErrorCode, type ApiHandlers, type ApiMethod } from '../../../shared/contract.js';
import { sendError, sendJson } from './http-io.js';
import { redactedError, redactedResult, type OutputOptions } from './api-output.js';

const STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  ambiguous: 409,
  internal: 500,
};

/**
 * Calls a handler with validated input; the one dispatch used by HTTP and Electron IPC alike, and
 * so the one place results and errors are redacted (api-output.ts) on their way out.
 */
export async function invokeApi(api: ApiHandlers, method: string, raw: unknown, options: OutputOptions = {}): Promise<unknown> {
  if (!isApiMethod(method)) throw new ApiError('not_found', `Unknown API method "${method.slice(0, 100)}".`);
  let result: unknown;
  try {
    const input = parseApiInput(method, raw);
    const handler = api[method] as (input: unknown) => Promise<unknown>;
    result = await handler(input);
  } catch (err) {
    throw await redactedError(err, options);
  }
  return redactedResult(method, result, options);
}

export async function handleApiCall(
  method: string,
  body: Buffer,
  api: ApiHandlers,
  res: ServerResponse,
  log?: (line: string) => void,
  options: OutputOptions = {},
): Promise<void> {
  let raw: unknown = {};
  if (body.length > 0) {
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      return sendError(res, 400, 'bad_request', 'Request body is not valid JSON.');
    }
  }
  try {
    sendJson(res, 200, await invokeApi(api, method, raw, options));
  } catch (err) {
    const { status, code, message, details } = describeError(err, method as ApiMethod);
    if (status === 500) log?.(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendError(res, status, code, message, details);
  }
}

export function describeError(err: unknown, method: string) {
  if (err instanceof ApiError) return { status: STATUS[err.code], code: err.code, message: err.message, details: err.details };
  // Unexpected failures: say which call failed and why, never the stack.
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, code: 'internal' as const, message: `${method} failed: ${message}`, details: undefined };
}
