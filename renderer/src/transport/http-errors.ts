/** Maps HTTP failures of headless mode to the contract's ApiError, keeping the server's code and message. */
import { ApiError, type ApiErrorCode } from '../../../shared/contract.js';
import { toApiError } from '../../../shared/client.js';

const BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'ambiguous',
  422: 'bad_request',
};

export function httpError(status: number, bodyText: string, method: string): ApiError {
  const statusCode = BY_STATUS[status] ?? 'internal';
  const body = parseJson(bodyText);
  const fallback = `${method} failed: HTTP ${status}${bodyText && body === null ? ` — ${bodyText.slice(0, 200).trim()}` : ''}`;
  const error = toApiError(body, fallback);
  // A body without a code (or a proxy's HTML error page) still gets the status' meaning.
  if (error.code === 'internal' && statusCode !== 'internal') return new ApiError(statusCode, error.message, error.details);
  return error;
}

export function networkError(method: string, cause: unknown): ApiError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(
    'internal',
    `Cannot reach the Baton server (${method}: ${reason}). Is \`baton serve\` still running?`,
  );
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
