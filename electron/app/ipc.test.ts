import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, IPC_CHANNEL_PREFIX } from '../../shared/contract.js';
import { createBatonCore, type BatonCore } from '../core/service.js';
import { bindApiIpc, dispatchIpc, isSameOrigin, type IpcInvokeEventLike, type IpcMainLike } from './ipc.js';

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>;

/** Records registrations the way ipcMain does (one handler per channel, a second one throws). */
class Registry implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  call(method: string, input: unknown, url: string | null = 'baton-app://ui/index.html') {
    const handler = this.handlers.get(IPC_CHANNEL_PREFIX + method);
    if (!handler) throw new Error(`No handler registered for '${IPC_CHANNEL_PREFIX + method}'`);
    return handler({ senderFrame: url === null ? null : { url } }, input);
  }
}

let dir: string;
let core: BatonCore;
const logs: string[] = [];
const options = { isTrustedSender: (url: string) => isSameOrigin(url, 'baton-app://ui'), log: (l: string) => logs.push(l) };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-ipc-'));
  core = await createBatonCore({ dataDir: dir, log: () => undefined });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bindApiIpc', () => {
  it('registers exactly one channel per contract method and removes them all', () => {
    const ipc = new Registry();
    const unbind = bindApiIpc(ipc, core.api, options);
    expect([...ipc.handlers.keys()].sort()).toEqual(API_METHODS.map((m) => IPC_CHANNEL_PREFIX + m).sort());
    unbind();
    expect(ipc.handlers.size).toBe(0);
  });

  it('dispatches validated input to the real core and returns the result', async () => {
    const ipc = new Registry();
    bindApiIpc(ipc, core.api, options);
    const reply = await ipc.call('updateSettings', { briefBudget: 9000 });
    expect(reply).toMatchObject({ ok: true, result: { settings: { briefBudget: 9000 } } });
    expect(await ipc.call('getSettings', undefined)).toMatchObject({ ok: true, result: { settings: { briefBudget: 9000 }, dataDir: dir } });
  });

  it('returns validation failures as bad_request with the issues, and changes nothing', async () => {
    const ipc = new Registry();
    bindApiIpc(ipc, core.api, options);
    const reply = await ipc.call('updateSettings', { briefBudget: 'lots' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('briefBudget') } });
    expect(core.settings.get().briefBudget).toBe(9000);
  });

  it('refuses calls from any other origin or a destroyed frame', async () => {
    const ipc = new Registry();
    bindApiIpc(ipc, core.api, options);
    for (const url of ['https://evil.example/index.html', 'file:///tmp/index.html', 'baton-app://other/x', null]) {
      expect(await ipc.call('mcpInfo', {}, url)).toEqual({ ok: false, error: { code: 'forbidden', message: 'This window may not call Baton.' } });
    }
    expect(logs.some((l) => l.includes('mcpInfo refused from https://evil.example'))).toBe(true);
  });
});

describe('dispatchIpc', () => {
  it('reports an unknown method as not_found', async () => {
    expect(await dispatchIpc(core.api, 'dropTables', {}, 'baton-app://ui/', options)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'Unknown API method "dropTables".' },
    });
  });

  it('maps an unexpected failure to internal without a stack, and logs it', async () => {
    const failing = { ...core.api, health: async () => { throw new Error('disk on fire'); } };
    const reply = await dispatchIpc(failing, 'health', {}, 'baton-app://ui/', options);
    expect(reply).toEqual({ ok: false, error: { code: 'internal', message: 'health failed: disk on fire' } });
    expect(logs.some((l) => l.startsWith('health failed: Error: disk on fire'))).toBe(true);
  });
});

describe('isSameOrigin', () => {
  it('compares scheme and host, and rejects garbage', () => {
    expect(isSameOrigin('baton-app://ui/index.html#/settings', 'baton-app://ui')).toBe(true);
    expect(isSameOrigin('baton-app://ui.evil/index.html', 'baton-app://ui')).toBe(false);
    expect(isSameOrigin('not a url', 'baton-app://ui')).toBe(false);
  });
});
