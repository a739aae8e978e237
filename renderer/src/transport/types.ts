import type { Transport } from '../../../shared/client.js';

/** Whether the UI can talk to the core right now. */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'unauthorized';

/** A transport plus its live connection state (IPC is always connected; HTTP follows the event stream). */
export interface RendererTransport extends Transport {
  readonly kind: 'ipc' | 'http';
  connection(): ConnectionState;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
