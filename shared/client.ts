/**
 * Builds a typed client for the whole contract over any transport (Electron IPC via the preload
 * bridge, or HTTP in headless mode). The method list comes from the contract, never repeated here.
 */
import { API_METHODS, ApiError, type ApiErrorCode, type ApiMethod, type BatonClient } from './contract.js';
import type { ApiEvent } from './api-types.js';

/** How one call is made. */
export interface CallOptions {
  /**
   * Results as they are, secrets not masked: only for the person at the UI, on an explicit action.
   * The core refuses it from anyone else (agents' token); see electron/core/server/api-output.ts.
   */
  reveal?: boolean;
}

export interface Transport {
  invoke(method: ApiMethod, input: unknown, options?: CallOptions): Promise<unknown>;
  /** Subscribe to core events; returns an unsubscribe function. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

/** `options.reveal`: a client whose every call asks for unmasked results (the UI's "Reveal secrets"). */
export function createClient(transport: Transport, options: CallOptions = {}): BatonClient {
  const client: Partial<Record<ApiMethod, (input?: unknown) => Promise<unknown>>> = {};
  for (const method of API_METHODS) {
    client[method] = options.reveal ? (input?: unknown) => transport.invoke(method, input ?? {}, options) : (input?: unknown) => transport.invoke(method, input ?? {});
  }
  return client as BatonClient;
}

/** Turns a transported error body back into an ApiError, keeping code and message. */
export function toApiError(body: unknown, fallback: string): ApiError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: { code?: unknown; message?: unknown; details?: unknown } }).error;
    const code = typeof error.code === 'string' ? (error.code as ApiErrorCode) : 'internal';
    const message = typeof error.message === 'string' ? error.message : fallback;
    return new ApiError(code, message, error.details);
  }
  return new ApiError('internal', fallback);
}
