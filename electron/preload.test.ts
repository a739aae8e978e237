/**
 * Builds the real preload bundle, checks it is one CommonJS file that requires only 'electron',
 * and runs it in a fresh VM context whose `electron` module routes ipcRenderer.invoke to the real
 * IPC dispatch over a real core: the bridge the renderer sees, end to end, without the runtime.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonBridge } from '../shared/bridge.js';
import type { ApiEvent } from '../shared/api-types.js';
import { IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL } from '../shared/contract.js';
import { createBatonCore, type BatonCore } from './core/service.js';
import { dispatchIpc, isSameOrigin } from './app/ipc.js';

let dir: string;
let code: string;
let core: BatonCore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-preload-'));
  await build({ configFile: path.join(import.meta.dirname, 'preload.vite.config.ts'), logLevel: 'silent', build: { outDir: path.join(dir, 'out') } });
  code = fs.readFileSync(path.join(dir, 'out', 'preload.cjs'), 'utf8');
  core = await createBatonCore({ dataDir: path.join(dir, 'data'), log: () => undefined });
}, 60_000);

afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function loadPreload(senderUrl: string) {
  const exposed: Record<string, unknown> = {};
  const listeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>();
  const invoked: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        invoked.push(channel);
        return dispatchIpc(core.api, channel.slice(IPC_CHANNEL_PREFIX.length), input, senderUrl, { isTrustedSender: (u) => isSameOrigin(u, 'baton-app://ui') });
      },
      on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, [...(listeners.get(channel) ?? []), fn]),
      removeListener: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, (listeners.get(channel) ?? []).filter((f) => f !== fn)),
    },
  };
  const required: string[] = [];
  const module = { exports: {} };
  const require = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`A sandboxed preload cannot require "${name}"`);
    return electron;
  };
  vm.runInNewContext(code, { require, module, exports: module.exports, console }, { filename: 'preload.cjs' });
  const emit = (payload: ApiEvent) => listeners.get(IPC_EVENT_CHANNEL)?.forEach((fn) => fn({}, payload));
  return { bridge: exposed.baton as BatonBridge, required, invoked, emit, exposed };
}

describe('preload bundle', () => {
  it('is CommonJS that requires only electron and exposes only window.baton', () => {
    const { required, exposed, bridge } = loadPreload('baton-app://ui/index.html');
    expect(required).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['baton']);
    expect(bridge.transport).toBe('ipc');
    expect(code).not.toMatch(/require\((?!"electron"\))/);
  });

  it('invokes contract methods and unwraps results', async () => {
    const { bridge } = loadPreload('baton-app://ui/index.html');
    expect(await bridge.invoke('mcpInfo', {})).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) });
    expect(await bridge.invoke('desktopStatus', {})).toEqual({ mode: 'headless', hotkey: null, server: null, launchAtLogin: null });
  });

  it('rejects methods outside the contract without sending them', async () => {
    const { bridge, invoked } = loadPreload('baton-app://ui/index.html');
    await expect(bridge.invoke('__proto__', {})).rejects.toEqual({ error: { code: 'not_found', message: 'Unknown API method "__proto__".' } });
    await expect(bridge.invoke('constructor', {})).rejects.toMatchObject({ error: { code: 'not_found' } });
    expect(invoked).toEqual([]);
  });

  it('turns error envelopes into rejections with code and message', async () => {
    const { bridge } = loadPreload('baton-app://ui/index.html');
    await expect(bridge.invoke('updateSettings', { port: 80 })).rejects.toMatchObject({ error: { code: 'bad_request', message: expect.stringContaining('port') } });
    const foreign = loadPreload('https://evil.example/');
    await expect(foreign.bridge.invoke('mcpInfo', {})).rejects.toEqual({ error: { code: 'forbidden', message: 'This window may not call Baton.' } });
  });

  it('delivers events to subscribers until they unsubscribe', () => {
    const { bridge, emit } = loadPreload('baton-app://ui/index.html');
    const seen: ApiEvent[] = [];
    const off = bridge.subscribe((e) => seen.push(e));
    emit({ type: 'settings-changed' });
    off();
    emit({ type: 'settings-changed' });
    expect(seen).toEqual([{ type: 'settings-changed' }]);
  });
});
