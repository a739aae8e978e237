/** Picks the transport: the Electron bridge when the preload exposed one, HTTP otherwise. */
import type { BatonBridge } from '../../../shared/bridge.js';
import { createHttpTransport } from './http.js';
import { createIpcTransport } from './ipc.js';
import type { RendererTransport } from './types.js';

declare global {
  interface Window {
    baton?: BatonBridge;
  }
}

export function selectTransport(): RendererTransport {
  const bridge = typeof window !== 'undefined' ? window.baton : undefined;
  return bridge && bridge.transport === 'ipc' ? createIpcTransport(bridge) : createHttpTransport();
}
