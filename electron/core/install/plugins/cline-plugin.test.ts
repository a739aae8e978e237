/** Baton's Cline plugin file: rendered with this Baton's hook, installed where Cline loads plugins, given back on uninstall. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { clinePluginFile, clinePluginInstalled, clinePluginStatus, installClinePlugin, renderClinePlugin, uninstallClinePlugin } from './cline-plugin.js';

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir('baton-cline-plugin-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
});
afterEach(() => tmp.cleanup());

describe("Baton's Cline plugin", () => {
  it('is written into ~/.cline/plugins with the hook command filled in; uninstall removes it and the folder Baton made', () => {
    fs.mkdirSync(path.join(environment.home, '.cline'), { recursive: true });
    const file = clinePluginFile(environment);
    expect(file).toBe(path.join(environment.home, '.cline', 'plugins', 'baton.js'));
    expect(clinePluginStatus(environment)[0]).toMatch(/not installed/);
    expect(installClinePlugin({ environment, dataDir })).toMatchObject({ agent: 'cline', ok: true, changed: true, file });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('__BATON_HOOK__');
    expect(text).not.toContain('__BATON_DATA_DIR__');
    expect(text).toContain("'session-start', '--agent', 'cline'");
    // This Baton's data dir is not the default one: the plugin names it for the hook.
    expect(text).toContain(JSON.stringify(dataDir));
    expect(clinePluginInstalled(environment)).toBe(true);
    expect(clinePluginStatus(environment)).toEqual([`plugin: installed — ${file}`]);
    expect(installClinePlugin({ environment, dataDir })).toMatchObject({ ok: true, changed: false });
    expect(uninstallClinePlugin({ environment, dataDir })).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(path.dirname(file))).toBe(false);
    expect(clinePluginInstalled(environment)).toBe(false);
  });

  it("leaves a plugin of the user's own named baton.js alone, and follows CLINE_DIR", () => {
    environment.env.CLINE_DIR = path.join(tmp.dir, 'cline-config');
    const file = clinePluginFile(environment);
    expect(file).toBe(path.join(tmp.dir, 'cline-config', 'plugins', 'baton.js'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'export default { name: "mine", manifest: { capabilities: [] } };\n');
    const outcome = installClinePlugin({ environment, dataDir });
    expect(outcome).toMatchObject({ ok: false, changed: false });
    expect(outcome.message).toMatch(/not Baton's Cline plugin/);
    expect(uninstallClinePlugin({ environment, dataDir })).toMatchObject({ ok: false, changed: false });
    expect(fs.readFileSync(file, 'utf8')).toContain('"mine"');
    expect(clinePluginInstalled(environment)).toBe(false);
  });

  it('renders a path with $ signs as it is', () => {
    const text = renderClinePlugin({ node: '/opt/$&node', script: '/a/bin/baton.mjs', dataDir: '/d/$1' });
    expect(text).toContain(JSON.stringify(JSON.stringify(['/opt/$&node', '/a/bin/baton.mjs'])));
    expect(text).toContain('"/d/$1"');
  });

  it('asks Baton once per session, at the lead agent’s first run only', async () => {
    const file = path.join(tmp.dir, 'plugin.mjs');
    fs.writeFileSync(file, renderClinePlugin({ node: process.execPath, script: path.join(tmp.dir, 'no-such-baton.mjs') }));
    const { default: plugin } = (await import(file)) as { default: { helpers: { isSessionStart(s: unknown): boolean } } };
    const { isSessionStart } = plugin.helpers;
    expect(isSessionStart({ messages: [{ role: 'user' }] })).toBe(true);
    expect(isSessionStart({ messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'user' }] })).toBe(false);
    expect(isSessionStart({ parentAgentId: 'lead', messages: [{ role: 'user' }] })).toBe(false);
  });
});
