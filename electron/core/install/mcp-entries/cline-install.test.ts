/** `baton mcp install --agent cline`: Cline's cline_mcp_settings.json, other servers kept, token private, Cline's lock honoured. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_cline_abcdefghijklmnopqrstuvwxyz01';
const endpoint = mcpEndpoint(8765, TOKEN);
// As Cline 3.0 writes it (JSON.stringify(settings, null, 2) and a newline).
const SETTINGS = `${JSON.stringify({ mcpServers: { fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], disabled: false } } }, null, 2)}\n`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let file: string;
beforeEach(() => {
  tmp = makeTempDir('baton-cline-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  file = path.join(environment.home, '.cline', 'data', 'settings', 'cline_mcp_settings.json');
});
afterEach(() => tmp.cleanup());

describe('Cline CLI (~/.cline/data/settings/cline_mcp_settings.json)', () => {
  it('adds mcpServers.baton (streamable HTTP), keeps the other servers, makes the file private; uninstall gives the file back', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, SETTINGS);
    fs.chmodSync(file, 0o644);
    const [result] = installMcp({ agent: 'cline', endpoint, environment });
    expect(result).toMatchObject({ agent: 'cline', file, ok: true, changed: true });
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(after.mcpServers.baton).toEqual({ type: 'streamableHttp', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(after.mcpServers.fetch).toBeDefined();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'cline', endpoint, environment })).toEqual([expect.objectContaining({ agent: 'cline', installed: true, current: true })]);
    expect(uninstallMcp({ agent: 'cline', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(SETTINGS);
  });

  it('follows CLINE_MCP_SETTINGS_PATH, else CLINE_DATA_DIR, else CLINE_DIR, as Cline does', () => {
    const at = (env: NodeJS.ProcessEnv) => installMcp({ agent: 'cline', endpoint, environment: { ...environment, env }, dryRun: true })[0]!.file;
    expect(at({ CLINE_DIR: '/c' })).toBe('/c/data/settings/cline_mcp_settings.json');
    expect(at({ CLINE_DIR: '/c', CLINE_DATA_DIR: '/d' })).toBe('/d/settings/cline_mcp_settings.json');
    expect(at({ CLINE_DATA_DIR: '/d', CLINE_MCP_SETTINGS_PATH: '/m/servers.json' })).toBe('/m/servers.json');
  });

  it('waits for the lock Cline holds while it saves the file, and leaves the file alone when it is not let go', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, SETTINGS);
    // Cline's lock: a `<file>.lock` folder holding an owner file, fresh (Cline reclaims it after 10 s).
    fs.mkdirSync(`${file}.lock`);
    fs.writeFileSync(path.join(`${file}.lock`, 'owner.123.1.x'), '123.1.x');
    const [held] = installMcp({ agent: 'cline', endpoint, environment });
    expect(held).toMatchObject({ ok: false, changed: false });
    expect(held!.message).toMatch(/being saved by another program/);
    expect(fs.readFileSync(file, 'utf8')).toBe(SETTINGS);
    // A lock left behind by a Cline that died (older than 10 s) is taken over.
    const old = new Date(Date.now() - 20_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(installMcp({ agent: 'cline', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});
