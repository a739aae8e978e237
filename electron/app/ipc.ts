/**
 * The contract over Electron IPC: one `ipcMain.handle` per API method, dispatched through the same
 * validated `invokeApi` as HTTP. Replies are envelopes because Electron flattens thrown errors to a
 * message; the preload turns `{ ok: false, error }` back into a rejection the renderer understands.
 * Written against a minimal `{ handle, removeHandler }` so it is testable without Electron.
 */
import { API_METHODS, IPC_CHANNEL_PREFIX, type ApiErrorBody, type ApiHandlers } from '../../shared/contract.js';
import { describeError, invokeApi } from '../core/server/api-route.js';

export interface IpcInvokeEventLike {
  /** The frame that sent the call; null when it navigated away or was destroyed. */
  senderFrame: { url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export type IpcEnvelope = { ok: true; result: unknown } | ({ ok: false } & ApiErrorBody);

export interface IpcBindingOptions {
  /** Whether a call from this frame URL is allowed (only Baton's own UI). */
  isTrustedSender(url: string): boolean;
  log?(line: string): void;
}

/** Runs one call for a sender: checks the sender, validates, dispatches and wraps the outcome. */
/**
 * `call.reveal`: the UI's "Reveal secrets" (only Baton's own window reaches here, and it is the
 * person's screen; agents never speak IPC). Anything else is redacted by invokeApi.
 */
export async function dispatchIpc(
  api: ApiHandlers,
  method: string,
  input: unknown,
  senderUrl: string | null,
  options: IpcBindingOptions,
  call: { reveal?: boolean } = {},
): Promise<IpcEnvelope> {
  if (senderUrl === null || !options.isTrustedSender(senderUrl)) {
    options.log?.(`IPC ${method} refused from ${senderUrl ?? 'a destroyed frame'}`);
    return { ok: false, error: { code: 'forbidden', message: 'This window may not call Baton.' } };
  }
  try {
    return { ok: true, result: await invokeApi(api, method, input, { reveal: call.reveal === true }) };
  } catch (err) {
    const { status, code, message, details } = describeError(err, method);
    if (status === 500) options.log?.(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
  }
}

/** Registers a handler per contract method; returns a function that removes them all. */
export function bindApiIpc(ipc: IpcMainLike, api: ApiHandlers, options: IpcBindingOptions): () => void {
  for (const method of API_METHODS) {
    ipc.handle(IPC_CHANNEL_PREFIX + method, (event, input, call) =>
      dispatchIpc(api, method, input, event.senderFrame?.url ?? null, options, { reveal: (call as { reveal?: unknown } | undefined)?.reveal === true }),
    );
  }
  return () => {
    for (const method of API_METHODS) ipc.removeHandler(IPC_CHANNEL_PREFIX + method);
  };
}

/** True when `url` belongs to `origin` (scheme + host, e.g. `baton-app://ui`). */
export function isSameOrigin(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    const expected = new URL(origin);
    return parsed.protocol === expected.protocol && parsed.host === expected.host;
  } catch {
    return false;
  }
}
