/**
 * The object the Electron preload exposes on `window.baton` (contextBridge). The renderer uses it
 * when present, and HTTP otherwise; both carry the same contract (see shared/contract.ts).
 */
import type { ApiEvent } from './api-types.js';

export interface BatonBridge {
  readonly transport: 'ipc';
  /** `options.reveal`: see CallOptions in client.ts. */
  invoke(method: string, input: unknown, options?: { reveal?: boolean }): Promise<unknown>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

/** HTTP protocol of headless mode, shared by the server and the renderer's HTTP transport. */
export const HTTP_API_PREFIX = '/api/';
export const HTTP_EVENTS_PATH = '/api/events';
export const HTTP_LOGIN_PATH = '/login';
export const AUTH_COOKIE = 'baton_token';
