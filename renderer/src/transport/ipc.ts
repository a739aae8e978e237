/** Electron: the preload's `window.baton` bridge carries the same contract over IPC. */
import type { BatonBridge } from '../../../shared/bridge.js';
import { ApiError } from '../../../shared/contract.js';
import { toApiError } from '../../../shared/client.js';
import type { RendererTransport } from './types.js';

export function createIpcTransport(bridge: BatonBridge): RendererTransport {
  return {
    kind: 'ipc',
    async invoke(method, input, call) {
      try {
        return await (call?.reveal ? bridge.invoke(method, input, { reveal: true }) : bridge.invoke(method, input));
      } catch (err) {
        // Errors cross IPC as plain objects (or Errors with the body in the message); keep the code.
        if (err instanceof ApiError) throw err;
        if (typeof err === 'object' && err !== null && 'error' in err) throw toApiError(err, `${method} failed`);
        const message = err instanceof Error ? err.message : String(err);
        const parsed = parseEmbeddedBody(message);
        throw parsed ?? new ApiError('internal', message);
      }
    },
    subscribe: (listener) => bridge.subscribe(listener),
    connection: () => 'connected',
    onConnection: () => () => undefined,
  };
}

/** Electron prefixes rejected invoke() errors ("Error invoking remote method 'x': …"); find our JSON body in it. */
function parseEmbeddedBody(message: string): ApiError | null {
  const start = message.indexOf('{"error"');
  if (start === -1) return null;
  try {
    return toApiError(JSON.parse(message.slice(start)), message);
  } catch {
    return null;
  }
}
