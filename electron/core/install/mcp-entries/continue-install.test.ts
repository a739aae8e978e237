/**
 * `baton mcp install --agent continue`: Continue cn's ~/.continue/config.yaml, whose `mcpServers`
 * is a list. Real temp files and links; every byte given back on uninstall.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_continue_abcdefghijklmnopqrstuvwxyz';
const endpoint = mcpEndpoint(8765, TOKEN);
const ENTRY = { name: 'baton', type: 'streamable-http', url: 'http://127.0.0.1:8765/mcp', requestOptions: { headers: { Authorization: `Bearer ${TOKEN}` } } };
// As a user keeps it: comments, a model, another MCP server (indented list items).
const CONFIG = `# my cn config
name: Local Config
version: 1.0.0
schema: v1
models:
  - name: mock   # the local one
    provider: openai
    model: mock-model
mcpServers:
  - name: playwright
    command: npx
    args: ["@playwright/mcp@latest"]
rules:
  - Be brief.
`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir('baton-continue-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
});
afterEach(() => tmp.cleanup());

const file = () => path.join(environment.home, '.continue', 'config.yaml');
function put(content: string, at = file()): string {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.writeFileSync(at, content);
  fs.chmodSync(at, 0o644);
  return at;
}
const options = (e = endpoint) => ({ agent: 'continue' as const, endpoint: e, environment, dataDir });
const servers = (f: string) => (parse(fs.readFileSync(f, 'utf8')) as { mcpServers: unknown[] | null }).mcpServers;

describe('Continue cn (~/.continue/config.yaml)', () => {
  it('appends Baton to mcpServers after the user’s servers, changes no other line, makes the file private; uninstall gives every byte back', () => {
    const f = put(CONFIG);
    const [result] = installMcp(options());
    expect(result).toMatchObject({ agent: 'continue', file: f, ok: true, changed: true });
    const text = fs.readFileSync(f, 'utf8');
    expect(text.startsWith(CONFIG.slice(0, CONFIG.indexOf('rules:')))).toBe(true);
    expect(text.endsWith('rules:\n  - Be brief.\n')).toBe(true);
    expect(servers(f)).toEqual([{ name: 'playwright', command: 'npx', args: ['@playwright/mcp@latest'] }, ENTRY]);
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus(options())).toEqual([expect.objectContaining({ agent: 'continue', installed: true, current: true, registeredUrl: ENTRY.url })]);
    // Installing again changes nothing.
    expect(installMcp(options())[0]).toMatchObject({ ok: true, changed: false });
    expect(uninstallMcp(options())[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(f, 'utf8')).toBe(CONFIG);
    expect(fs.statSync(f).mode & 0o777).toBe(0o644);
  });

  it('creates mcpServers when the config has none (CRLF kept); after the user edits, uninstall takes only Baton’s lines and the key it brought', () => {
    const f = put('name: Local Config\r\nmodels:\r\n  - name: mock\r\n    provider: openai\r\n');
    installMcp(options());
    expect(fs.readFileSync(f, 'utf8')).toMatch(/\r\nmcpServers:\r\n {2}- name: baton\r\n/);
    expect(servers(f)).toEqual([ENTRY]);
    fs.appendFileSync(f, 'rules:\r\n  - mine\r\n');
    uninstallMcp(options());
    expect(fs.readFileSync(f, 'utf8')).toBe('name: Local Config\r\nmodels:\r\n  - name: mock\r\n    provider: openai\r\nrules:\r\n  - mine\r\n');
  });

  it('fills an empty "mcpServers:" and replaces an entry for another port in place of adding a second', () => {
    const f = put('name: c\nmcpServers: []\n');
    installMcp(options(mcpEndpoint(1, TOKEN)));
    expect(servers(f)).toEqual([{ ...ENTRY, url: 'http://127.0.0.1:1/mcp' }]);
    expect(mcpInstallStatus(options())[0]).toMatchObject({ installed: true, current: false, registeredUrl: 'http://127.0.0.1:1/mcp' });
    installMcp(options());
    expect(servers(f)).toEqual([ENTRY]);
  });

  it('moves an old Baton item among the user’s servers to the end with the new port; a flow-style list is refused untouched', () => {
    const f = put(CONFIG);
    installMcp(options(mcpEndpoint(1, TOKEN)));
    fs.appendFileSync(f, '# later\n');
    const edited = fs.readFileSync(f, 'utf8').replace('rules:', 'mcpServersNote: x\nrules:');
    fs.writeFileSync(f, edited);
    installMcp(options());
    expect(servers(f)).toEqual([{ name: 'playwright', command: 'npx', args: ['@playwright/mcp@latest'] }, ENTRY]);
    expect(fs.readFileSync(f, 'utf8')).toContain('mcpServersNote: x\nrules:\n  - Be brief.\n# later\n');
    const flow = put('mcpServers: [{name: other, url: "http://x"}]\n');
    expect(installMcp(options())[0]).toMatchObject({ ok: false, changed: false });
    expect(fs.readFileSync(flow, 'utf8')).toBe('mcpServers: [{name: other, url: "http://x"}]\n');
  });

  it('refuses to create config.yaml (cn would leave its Hub config for one without a model): nothing is written', () => {
    const [result] = installMcp(options());
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(result!.message).toMatch(/does not exist: cn then runs on its Continue Hub config/);
    expect(fs.existsSync(path.join(environment.home, '.continue'))).toBe(false);
    // "All agents" passes over a cn without its local config (no error for someone who does not use cn).
    expect(installMcp({ ...options(), agent: 'all' }).filter((r) => r.agent === 'continue')).toEqual([]);
    expect(fs.existsSync(path.join(environment.home, '.continue'))).toBe(false);
  });

  it('refuses a config whose mcpServers is not a list, or that is not YAML, leaving it untouched', () => {
    for (const content of ['mcpServers:\n  baton: {}\n', 'models: [\n']) {
      const f = put(content);
      const [result] = installMcp(options());
      expect(result, content).toMatchObject({ ok: false, changed: false });
      expect(fs.readFileSync(f, 'utf8')).toBe(content);
    }
  });

  it('follows CONTINUE_GLOBAL_DIR and a symlinked config, as cn does', () => {
    environment.env.CONTINUE_GLOBAL_DIR = path.join(tmp.dir, 'cn-home');
    const real = put('name: c\n', path.join(tmp.dir, 'dotfiles', 'cn.yaml'));
    const link = path.join(tmp.dir, 'cn-home', 'config.yaml');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(real, link);
    expect(installMcp(options())[0]).toMatchObject({ ok: true, changed: true, file: link });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(servers(real)).toEqual([ENTRY]);
    uninstallMcp(options());
    expect(fs.readFileSync(real, 'utf8')).toBe('name: c\n');
  });
});
