import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideStartMode, headlessNotice, type StartProbe } from './start-mode.js';

let root: string;

/** A real directory tree shaped like a checkout, so the probe reads real files. */
function layout(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(root, 'r-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function probe(dir: string, env: NodeJS.ProcessEnv = { DISPLAY: ':0' }, platform: NodeJS.Platform = 'linux'): StartProbe {
  return {
    root: dir,
    platform,
    env,
    exists: (f) => fs.existsSync(f),
    readText: (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null),
  };
}

const complete = {
  'node_modules/electron/package.json': '{}',
  'node_modules/electron/path.txt': 'electron',
  'node_modules/electron/dist/electron': '',
  'dist/electron/main.js': '',
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-start-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('decideStartMode', () => {
  it('starts Electron when the runtime, the build and a display are there', () => {
    const dir = layout(complete);
    expect(decideStartMode(probe(dir))).toEqual({
      mode: 'electron',
      binary: path.join(dir, 'node_modules/electron/dist/electron'),
      main: path.join(dir, 'dist/electron/main.js'),
    });
  });

  it('downloads the runtime once when it was never downloaded, and falls back when that fails (this machine’s case)', () => {
    const { 'node_modules/electron/path.txt': _p, 'node_modules/electron/dist/electron': _b, ...rest } = complete;
    const dir = layout(rest);
    expect(decideStartMode(probe(dir))).toEqual({ mode: 'download', installer: path.join(dir, 'node_modules/electron/install.js') });
    const failed = decideStartMode({ ...probe(dir), downloadFailed: 'getaddrinfo ENOTFOUND github.com' });
    expect(failed).toEqual({ mode: 'headless', reason: expect.stringContaining('could not be downloaded (getaddrinfo ENOTFOUND github.com)') });
    // A machine without a display never downloads a GUI runtime.
    expect(decideStartMode(probe(dir, {}))).toMatchObject({ mode: 'headless', reason: expect.stringContaining('no display') });
  });

  it('falls back when path.txt names a binary that is not there', () => {
    const { 'node_modules/electron/dist/electron': _b, ...rest } = complete;
    expect(decideStartMode(probe(layout(rest)))).toMatchObject({ mode: 'headless', reason: expect.stringContaining('runtime is missing') });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH like electron itself', () => {
    const { 'node_modules/electron/path.txt': _p, ...rest } = complete;
    const dir = layout({ ...rest, 'custom/electron': '' });
    expect(decideStartMode(probe(dir, { DISPLAY: ':1', ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'custom') }))).toMatchObject({
      mode: 'electron',
      binary: path.join(dir, 'custom/electron'),
    });
  });

  it('needs a display on Linux only', () => {
    const dir = layout(complete);
    expect(decideStartMode(probe(dir, {}))).toMatchObject({ mode: 'headless', reason: expect.stringContaining('no display') });
    expect(decideStartMode(probe(dir, { WAYLAND_DISPLAY: 'wayland-0' })).mode).toBe('electron');
    expect(decideStartMode(probe(dir, {}, 'darwin')).mode).toBe('electron');
  });

  it('falls back without the electron package, without a build, or when asked to', () => {
    expect(decideStartMode(probe(layout({ 'dist/electron/main.js': '' })))).toMatchObject({ reason: 'the electron package is not installed.' });
    const { 'dist/electron/main.js': _m, ...unbuilt } = complete;
    expect(decideStartMode(probe(layout(unbuilt)))).toMatchObject({ reason: expect.stringContaining('not built') });
    expect(decideStartMode(probe(layout(complete), { DISPLAY: ':0', BATON_HEADLESS: '1' }))).toMatchObject({ mode: 'headless' });
  });
});

describe('headlessNotice', () => {
  it('is one line', () => {
    expect(headlessNotice('There is no display.')).toBe('Baton: starting headless because there is no display.');
  });
});
