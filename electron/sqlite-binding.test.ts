/**
 * Why `npm start` under Electron needs no Electron-specific build of better-sqlite3: since v13 its
 * addon is a Node-API module (node-addon-api, `NAPI_VERSION` in its binding.gyp) shipped as
 * prebuilds inside the npm package. Node-API is ABI-stable, so the one binary in node_modules loads
 * in Node 22 (CLI, `baton serve`, tests) and in Electron's main process alike; there is no
 * NODE_MODULE_VERSION to mismatch. These tests fail if that stops being true (e.g. better-sqlite3
 * pinned back to ≤ 12, which compiled against V8 directly), which is when dev `npm start` would
 * need an Electron-ABI copy of the addon.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));

/** What an addon binary links against, read from the symbol names it carries (ELF, Mach-O, PE). */
function addonAbi(bytes: Buffer): { nodeApi: boolean; v8Abi: boolean } {
  const text = bytes.toString('latin1');
  return {
    nodeApi: text.includes('napi_register_module_v1'),
    // V8-ABI addons register through node_module_register / node_register_module_v<ABI> and import
    // mangled v8:: symbols (Itanium `_ZN2v8`, MSVC `@v8@@`); a Node-API addon has none of these.
    v8Abi: /node_register_module_v\d|node_module_register|_ZN2v8|@v8@@/.test(text),
  };
}

/** The `NAPI_VERSION` better-sqlite3 compiles its addon (and its prebuilds) for. */
function requiredNodeApiVersion(): number {
  const gyp = fs.readFileSync(path.join(packageDir, 'binding.gyp'), 'utf8');
  const match = /NAPI_VERSION=(\d+)/.exec(gyp);
  if (!match) throw new Error(`${packageDir}/binding.gyp defines no NAPI_VERSION: better-sqlite3 is no longer a Node-API addon`);
  return Number(match[1]);
}

describe('the better-sqlite3 addon serves Node and Electron with one binary', () => {
  it('loads a Node-API binary in this process', () => {
    const Sqlite = require('better-sqlite3') as typeof Database;
    const db = new Sqlite(':memory:');
    expect(db.prepare('SELECT sqlite_version() AS v').get()).toEqual({ v: expect.stringMatching(/^3\./) });
    db.close();
    const loaded = Object.keys(require.cache).filter((file) => file.endsWith('.node') && file.startsWith(packageDir));
    expect(loaded).toHaveLength(1);
    expect(addonAbi(fs.readFileSync(loaded[0]!))).toEqual({ nodeApi: true, v8Abi: false });
  });

  it('ships only Node-API prebuilds, so packaged builds for every platform need no rebuild either', () => {
    const dir = path.join(packageDir, 'prebuilds');
    const prebuilds = fs.readdirSync(dir).filter((name) => name.endsWith('.node'));
    expect(prebuilds).toEqual(expect.arrayContaining(['darwin-arm64.node', 'darwin-x64.node', 'linux-x64.node', 'win32-x64.node']));
    for (const name of prebuilds) {
      expect({ name, ...addonAbi(fs.readFileSync(path.join(dir, name))) }).toEqual({ name, nodeApi: true, v8Abi: false });
    }
  });

  it('needs a Node-API version that both Node and the installed Electron provide', () => {
    const required = requiredNodeApiVersion();
    expect(Number(process.versions.napi)).toBeGreaterThanOrEqual(required);
    const electron = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string };
    // node-api-version (used by @electron/rebuild) maps Electron releases to their Node-API level.
    const { fromElectronVersion } = require('node-api-version') as { fromElectronVersion(version: string): number | undefined };
    const supported = fromElectronVersion(electron.version) ?? 0;
    expect(supported, `Node-API level of Electron ${electron.version}`).toBeGreaterThanOrEqual(required);
  });

  it('tells a V8-ABI addon from a Node-API one', () => {
    expect(addonAbi(Buffer.from('\0napi_register_module_v1\0node_api_module_get_api_version_v1\0'))).toEqual({ nodeApi: true, v8Abi: false });
    expect(addonAbi(Buffer.from('\0node_register_module_v127\0_ZN2v87Isolate7GetCurrentEv\0'))).toEqual({ nodeApi: false, v8Abi: true });
    expect(addonAbi(Buffer.from('\0?New@String@v8@@SA?AV?$MaybeLocal\0'))).toEqual({ nodeApi: false, v8Abi: true });
  });
});
