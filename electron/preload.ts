/**
 * The sandboxed preload: exposes `window.baton` (shared/bridge.ts) and nothing else. Only contract
 * methods are forwarded; the main process's envelope is unwrapped into a result or a rejection
 * carrying `{ error: { code, message } }`, which the renderer's IPC transport turns into ApiError.
 * Bundled to a single CommonJS file (electron/preload.vite.config.ts): sandboxed preloads may only
 * require 'electron'.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BatonBridge } from '../shared/bridge.js';
import type { ApiEvent } from '../shared/api-types.js';
import { IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL, isApiMethod } from '../shared/contract.js';
import type { IpcEnvelope } from './app/ipc.js';

const bridge: BatonBridge = {
  transport: 'ipc',
  async invoke(method: string, input: unknown, options?: { reveal?: boolean }): Promise<unknown> {
    if (typeof method !== 'string' || !isApiMethod(method)) {
      throw { error: { code: 'not_found', message: `Unknown API method "${String(method)}".` } };
    }
    const reveal = options?.reveal === true;
    const reply = (await (reveal ? ipcRenderer.invoke(IPC_CHANNEL_PREFIX + method, input, { reveal }) : ipcRenderer.invoke(IPC_CHANNEL_PREFIX + method, input))) as IpcEnvelope;
    if (reply.ok) return reply.result;
    throw { error: reply.error };
  },
  subscribe(listener: (event: ApiEvent) => void): () => void {
    const handler = (_event: IpcRendererEvent, payload: ApiEvent) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('baton', bridge);
