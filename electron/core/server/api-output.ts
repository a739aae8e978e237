/**
 * The HTTP/IPC API's boundary: every result and error of the contract leaves through the one
 * redactor, unless the person at the UI asked to reveal (see http-server.ts for who may). A new
 * contract method is redacted without anyone remembering to: only the calls below are exempt.
 */
import { ApiError, type ApiMethod } from '../../../shared/contract.js';
import { redactForOutput } from '../redaction/redact.js';

/**
 * Results that hold no transcript text and must round-trip exactly: settings (the UI saves what it
 * shows, so a masked value would be written back) and the MCP token (the UI shows it to be copied).
 */
const NOT_REDACTED: ReadonlySet<ApiMethod> = new Set<ApiMethod>(['getSettings', 'updateSettings', 'mcpInfo', 'regenerateToken']);

export interface OutputOptions {
  /** The person at the UI asked to see secrets (never an agent: callers decide who may). */
  reveal?: boolean;
}

export function redactedResult(method: ApiMethod, result: unknown, options: OutputOptions = {}): Promise<unknown> {
  if (options.reveal || NOT_REDACTED.has(method)) return Promise.resolve(result);
  return redactForOutput(result);
}

/** The same failure with its message and details redacted (an "ambiguous" error lists titles). */
export async function redactedError(err: unknown, options: OutputOptions = {}): Promise<unknown> {
  if (options.reveal) return err;
  if (err instanceof ApiError) return new ApiError(err.code, await redactForOutput(err.message), await redactForOutput(err.details));
  if (err instanceof Error) {
    const copy = new Error(await redactForOutput(err.message));
    copy.stack = await redactForOutput(err.stack);
    return copy;
  }
  return redactForOutput(String(err));
}
