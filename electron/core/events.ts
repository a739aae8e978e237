/** The core's event bus: what UIs (IPC, server-sent events) and the tray listen to. */
import { EventEmitter } from 'node:events';
import type { ApiEvent } from '../../shared/api-types.js';

export class CoreEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every open UI and SSE client is a listener; dozens are normal.
    this.emitter.setMaxListeners(0);
  }

  emit(event: ApiEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: ApiEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
