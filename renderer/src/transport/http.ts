/**
 * Headless mode: `POST /api/<method>` with a JSON body, server-sent events on `/api/events`.
 * Auth is the HttpOnly cookie set by the one-time `/login?code=…` link, so every request is same-origin with
 * credentials; a 401 anywhere flips the connection to "unauthorized" (the login screen).
 */
import type { ApiEvent } from '../../../shared/api-types.js';
import { HTTP_API_PREFIX, HTTP_EVENTS_PATH } from '../../../shared/bridge.js';
import type { ApiMethod } from '../../../shared/contract.js';
import type { CallOptions } from '../../../shared/client.js';
import { httpError, networkError } from './http-errors.js';
import { createSseParser } from './sse-parser.js';
import type { ConnectionState, RendererTransport } from './types.js';

export interface HttpTransportOptions {
  /** Origin of the server; '' = the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Reconnect delays for the event stream, ms; the last one repeats. */
  retryDelays?: number[];
}

export function createHttpTransport(options: HttpTransportOptions = {}): RendererTransport {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const delays = options.retryDelays ?? [250, 1000, 2000, 5000];
  const listeners = new Set<(event: ApiEvent) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let stream: AbortController | null = null;

  const setState = (next: ConnectionState): void => {
    if (next === state) return;
    state = next;
    for (const listener of connectionListeners) listener(next);
  };

  const emit = (data: string): void => {
    let event: ApiEvent;
    try {
      event = JSON.parse(data) as ApiEvent;
    } catch {
      return; // not ours; the server only sends JSON events
    }
    for (const listener of listeners) listener(event);
  };

  const runEventStream = async (abort: AbortController): Promise<void> => {
    let attempt = 0;
    while (!abort.signal.aborted) {
      try {
        const res = await doFetch(`${base}${HTTP_EVENTS_PATH}`, {
          headers: { accept: 'text/event-stream' },
          credentials: 'same-origin',
          cache: 'no-store',
          signal: abort.signal,
        });
        if (res.status === 401) {
          setState('unauthorized');
        } else if (!res.ok || !res.body) {
          setState('disconnected');
        } else {
          setState('connected');
          attempt = 0;
          const parse = createSseParser((message) => emit(message.data));
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parse(value);
          }
          if (!abort.signal.aborted) setState('disconnected');
        }
      } catch {
        if (abort.signal.aborted) return;
        setState('disconnected');
      }
      const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000;
      attempt += 1;
      await sleep(delay, abort.signal);
    }
  };

  return {
    kind: 'http',
    async invoke(method: ApiMethod, input: unknown, call?: CallOptions): Promise<unknown> {
      let res: Response;
      try {
        // `?reveal=1` is honoured only for the login cookie (the UI), never for the agents' token.
        res = await doFetch(`${base}${HTTP_API_PREFIX}${method}${call?.reveal ? '?reveal=1' : ''}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
          cache: 'no-store',
        });
      } catch (err) {
        throw networkError(method, err);
      }
      const text = await res.text();
      if (!res.ok) {
        const error = httpError(res.status, text, method);
        if (error.code === 'unauthorized') setState('unauthorized');
        throw error;
      }
      return text ? (JSON.parse(text) as unknown) : null;
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!stream) {
        stream = new AbortController();
        void runEventStream(stream);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && stream) {
          stream.abort();
          stream = null;
        }
      };
    },
    connection: () => state,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
