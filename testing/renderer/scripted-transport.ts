/**
 * Test support for store tests: a transport whose calls are answered by per-method functions
 * (optionally delayed, to exercise races) and whose events are pushed by the test.
 */
import type { ApiEvent } from '../../shared/api-types.js';
import type { ApiMethod } from '../../shared/contract.js';
import type { ConnectionState, RendererTransport } from '../../renderer/src/transport/types.js';

export type Responder = (input: Record<string, unknown>) => unknown;

export interface ScriptedTransport extends RendererTransport {
  calls: { method: ApiMethod; input: Record<string, unknown> }[];
  respond(method: ApiMethod, responder: Responder, delayMs?: number | ((input: Record<string, unknown>) => number)): void;
  emit(event: ApiEvent): void;
  setConnection(state: ConnectionState): void;
}

export function createScriptedTransport(): ScriptedTransport {
  const responders = new Map<ApiMethod, { fn: Responder; delay: number | ((input: Record<string, unknown>) => number) }>();
  const listeners = new Set<(event: ApiEvent) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let connection: ConnectionState = 'connected';
  const calls: ScriptedTransport['calls'] = [];
  return {
    kind: 'http',
    calls,
    async invoke(method, input) {
      const record = (input ?? {}) as Record<string, unknown>;
      calls.push({ method, input: record });
      const responder = responders.get(method);
      if (!responder) throw new Error(`no responder for ${method}`);
      const delay = typeof responder.delay === 'function' ? responder.delay(record) : responder.delay;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return responder.fn(record);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connection: () => connection,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    respond(method, fn, delay = 0) {
      responders.set(method, { fn, delay });
    },
    emit(event) {
      for (const l of listeners) l(event);
    },
    setConnection(state) {
      connection = state;
      for (const l of connectionListeners) l(state);
    },
  };
}
