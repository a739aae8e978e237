/**
 * Issue #25 item 5 for the files Baton installs whole or beside a config: the pi extension, the
 * OpenCode plugin (and Kilo Code's copy) and their `.npmrc` lines take the path every config takes — edited through a
 * symlink, owner and mode kept, read-only refused with the reason, and every byte given back
 * (folders Baton created included). Real temp files and symlinks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import type { Environment } from '../paths.js';
import { mcpEndpoint } from './endpoint.js';
import { installMcp, uninstallMcp } from './mcp-entries/mcp-installer.js';
import { mcpConfigFile, opencodePluginFile } from './config/config-locations.js';
import { installOpencodePlugin, installPlugin, uninstallOpencodePlugin, uninstallPlugin } from './plugins/opencode-plugin.js';
import { installNpmrc, installOpencodeNpmrc, opencodeNpmrcFile, uninstallNpmrc, uninstallOpencodeNpmrc } from './plugins/opencode-npmrc.js';
import { renderPiExtension } from './plugins/pi-extension.js';

const TOKEN = 'tok_plugin_give_back_0123456789abcdefghij';
let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir('baton-plugin-give-back-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
  fs.mkdirSync(environment.home, { recursive: true });
});
afterEach(() => tmp.cleanup());

const endpoint = mcpEndpoint(8765, TOKEN);
const pi = (port = 8765) => ({ agent: 'pi' as const, endpoint: mcpEndpoint(port, TOKEN), environment, dataDir });
const opencode = () => ({ environment, dataDir, endpoint: { ...endpoint, tokenFile: path.join(dataDir, 'token') } });
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

function put(file: string, content: string, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}

/** `link` → `real` (the dotfile manager's layout); returns the real file. */
function linked(link: string, real: string, content: string, mode: number): string {
  put(real, content, mode);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(real, link);
  return real;
}

describe("pi's extension", () => {
  it('the folders Baton created for it go at uninstall; a folder that was there stays', () => {
    fs.mkdirSync(path.join(environment.home, '.pi'));
    installMcp(pi());
    expect(fs.existsSync(mcpConfigFile('pi', environment))).toBe(true);
    uninstallMcp(pi());
    expect(fs.existsSync(path.join(environment.home, '.pi', 'agent'))).toBe(false);
    expect(fs.existsSync(path.join(environment.home, '.pi'))).toBe(true);
  });

  it('an extensions folder holding something else stays', () => {
    installMcp(pi());
    put(path.join(path.dirname(mcpConfigFile('pi', environment)), 'mine.ts'), 'export default () => {};\n');
    uninstallMcp(pi());
    expect(fs.readdirSync(path.dirname(mcpConfigFile('pi', environment)))).toEqual(['mine.ts']);
  });

  it('a symlinked extension is written where the link points, with its mode', () => {
    const link = mcpConfigFile('pi', environment);
    const real = linked(link, path.join(tmp.dir, 'dotfiles', 'pi-baton.ts'), renderPiExtension(mcpEndpoint(1111, TOKEN), environment), 0o640);
    const [done] = installMcp(pi());
    expect(done).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain("'http://127.0.0.1:8765/mcp'");
    expect(modeOf(real)).toBe(0o640);
  });

  it('a read-only extension is refused with the reason, nothing written', () => {
    const file = put(mcpConfigFile('pi', environment), renderPiExtension(mcpEndpoint(1111, TOKEN), environment), 0o444);
    const before = fs.readFileSync(file);
    expect(installMcp(pi())[0]).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/read-only \(mode 0444\)/) });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(modeOf(file)).toBe(0o444);
    expect(uninstallMcp(pi())[0]).toMatchObject({ ok: false, message: expect.stringMatching(/read-only/) });
    expect(fs.existsSync(file)).toBe(true);
  });
});

describe('the OpenCode plugin', () => {
  it("a plugins/baton.js that is not Baton's is never replaced", () => {
    const file = put(opencodePluginFile(environment), 'export const Mine = async () => ({});\n');
    expect(installOpencodePlugin(opencode())).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/not Baton's OpenCode plugin/) });
    expect(fs.readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({});\n');
  });

  it('is removed with the folders Baton created; a symlinked one is written through the link', () => {
    fs.mkdirSync(path.join(environment.home, '.config', 'opencode'), { recursive: true });
    installOpencodePlugin(opencode());
    uninstallOpencodePlugin(opencode());
    expect(fs.existsSync(path.join(environment.home, '.config', 'opencode', 'plugins'))).toBe(false);
    expect(fs.existsSync(path.join(environment.home, '.config', 'opencode'))).toBe(true);

    const link = opencodePluginFile(environment);
    const real = linked(link, path.join(tmp.dir, 'dotfiles', 'baton.js'), '// Baton plugin for OpenCode (old)\n', 0o640);
    expect(installOpencodePlugin(opencode())).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain(path.join(dataDir, 'token'));
    expect(modeOf(real)).toBe(0o640);
  });

  it('a read-only plugin file is refused with the reason', () => {
    const file = put(opencodePluginFile(environment), '// Baton plugin for OpenCode (old)\n', 0o400);
    expect(installOpencodePlugin(opencode())).toMatchObject({ ok: false, message: expect.stringMatching(/read-only/) });
    expect(fs.readFileSync(file, 'utf8')).toBe('// Baton plugin for OpenCode (old)\n');
  });
});

describe("OpenCode's .npmrc", () => {
  const user = '; mine\r\nregistry=https://npm.example.com/\r\n//npm.example.com/:_authToken=${NPM_TOKEN}';

  it('a symlinked .npmrc is edited through the link, keeps its mode, and gets exactly its bytes back', () => {
    const link = opencodeNpmrcFile(environment);
    const real = linked(link, path.join(tmp.dir, 'dotfiles', 'npmrc'), user, 0o640);
    expect(installOpencodeNpmrc({ environment, dataDir })).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain('fetch-retries=0\r\n');
    expect(modeOf(real)).toBe(0o640);
    const nodeModules = path.join(path.dirname(link), 'node_modules');
    expect(fs.existsSync(nodeModules)).toBe(true);
    expect(uninstallOpencodeNpmrc({ environment, dataDir })).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe(user);
    // The empty node_modules Baton made so npm reads the folder's .npmrc goes with Baton's line.
    expect(fs.existsSync(nodeModules)).toBe(false);
  });

  it('one Baton created goes, with the folder it created', () => {
    installOpencodeNpmrc({ environment, dataDir });
    uninstallOpencodeNpmrc({ environment, dataDir });
    expect(fs.existsSync(path.join(environment.home, '.config'))).toBe(false);
  });

  it('a read-only .npmrc is refused with the reason', () => {
    const file = put(opencodeNpmrcFile(environment), user, 0o444);
    expect(installOpencodeNpmrc({ environment, dataDir })).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/read-only \(mode 0444\)/) });
    expect(fs.readFileSync(file, 'utf8')).toBe(user);
    expect(fs.existsSync(path.join(path.dirname(file), 'node_modules'))).toBe(false);
  });
});

describe("Kilo Code's copy of the OpenCode plugin", () => {
  const kilo = () => ({ environment, dataDir, endpoint: { ...endpoint, tokenFile: path.join(dataDir, 'token') } });

  it('reports for Kilo, sits in ~/.config/kilo/plugins, and plugin, .npmrc and folders go back byte for byte', () => {
    const configDir = path.join(environment.home, '.config', 'kilo');
    const userNpmrc = '; mine\nregistry=https://npm.example.com/\n';
    put(path.join(configDir, '.npmrc'), userNpmrc);
    expect(installPlugin('kilo', kilo())).toMatchObject({ ok: true, changed: true, agent: 'kilo', file: path.join(configDir, 'plugins', 'baton.js') });
    expect(installNpmrc('kilo', { environment, dataDir })).toMatchObject({ ok: true, changed: true });
    const plugin = fs.readFileSync(path.join(configDir, 'plugins', 'baton.js'), 'utf8');
    expect(plugin).toContain("const BATON_AGENT = \"kilo\";");
    expect(plugin).not.toContain(TOKEN);
    expect(fs.readFileSync(path.join(configDir, '.npmrc'), 'utf8')).toMatch(/Kilo Code start[^\n]*\nfetch-retries=0\n$/);
    // OpenCode's copy is untouched by Kilo's.
    expect(fs.existsSync(opencodePluginFile(environment))).toBe(false);

    expect(uninstallPlugin('kilo', kilo())).toMatchObject({ ok: true, changed: true });
    expect(uninstallNpmrc('kilo', { environment, dataDir })).toMatchObject({ ok: true, changed: true });
    // The plugins folder and the node_modules Baton made go; the backup of the user's .npmrc stays.
    expect(fs.readdirSync(configDir).filter((name) => !name.startsWith('.npmrc.bak-'))).toEqual(['.npmrc']);
    expect(fs.readFileSync(path.join(configDir, '.npmrc'), 'utf8')).toBe(userNpmrc);
  });

  it("a plugins/baton.js in Kilo's folder that is not Baton's is never replaced", () => {
    const file = put(path.join(environment.home, '.config', 'kilo', 'plugins', 'baton.js'), 'export const Mine = async () => ({});\n');
    expect(installPlugin('kilo', kilo())).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/not Baton's Kilo Code plugin/) });
    expect(fs.readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({});\n');
  });
});
