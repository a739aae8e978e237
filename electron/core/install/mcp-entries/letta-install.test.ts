/**
 * `baton mcp install --agent letta`: Letta Code keeps client-side MCP servers per agent in
 * ~/.letta/settings.json (`agents[i].mcpServers`, the shape `/mcp add --transport http` writes), so
 * Baton's entry goes into every agent listed; the rest of the file keeps its bytes, it is made
 * private (it holds the token), and uninstall gives it back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_letta_abcdefghijklmnopqrstuvwxyz012';
const endpoint = mcpEndpoint(8765, TOKEN);
const BATON = { name: 'baton', transport: 'http', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` } };
const NOTION = { name: 'notion', transport: 'http', url: 'https://mcp.notion.com/mcp' };
const LOCAL = 'local:/home/ana/.letta/lc-local-backend';

// As Letta Code 0.32.18 writes it (JSON.stringify, 2 spaces): two local agents, one with a server of its own.
function settings(agents: Record<string, unknown>[]): string {
  return `${JSON.stringify({ lastAgent: null, tokenStreaming: false, preferredBackendMode: 'local', agents, sessionsByServer: { [LOCAL]: { agentId: 'agent-local-1', conversationId: 'local-conv-2' } } }, null, 2)}\n`;
}
const SETTINGS = settings([
  { agentId: 'agent-local-1', baseUrl: LOCAL, systemPromptPreset: 'default', memfs: true },
  { agentId: 'agent-local-2', baseUrl: LOCAL, memfs: true, mcpServers: [NOTION] },
]);

interface Parsed {
  agents: { agentId: string; mcpServers?: unknown[] }[];
  lastAgent: unknown;
}

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let file: string;
beforeEach(() => {
  tmp = makeTempDir('baton-letta-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  file = path.join(environment.home, '.letta', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterEach(() => tmp.cleanup());

function parsed(): Parsed {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Parsed;
}

describe('Letta Code (~/.letta/settings.json, per agent)', () => {
  it("adds Baton's http server to every agent, keeps their other servers and settings, makes the file private; uninstall gives the bytes back", () => {
    fs.writeFileSync(file, SETTINGS, { mode: 0o644 });
    const [result] = installMcp({ agent: 'letta', endpoint, environment });
    expect(result).toMatchObject({ agent: 'letta', file, ok: true, changed: true });
    const after = parsed();
    expect(after.agents.map((a) => a.mcpServers)).toEqual([[BATON], [NOTION, BATON]]);
    expect(after.lastAgent).toBeNull();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'letta', endpoint, environment })).toEqual([{ agent: 'letta', file, installed: true, current: true, registeredUrl: BATON.url }]);
    expect(installMcp({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ ok: true, changed: false });

    expect(uninstallMcp({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(SETTINGS);
    expect(mcpInstallStatus({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ installed: false, current: false });
  });

  it('after Letta rewrote the file, uninstall takes out only Baton’s entries (and the lists they alone made)', () => {
    fs.writeFileSync(file, SETTINGS);
    installMcp({ agent: 'letta', endpoint, environment });
    // Letta rewrites the whole document as it runs (here: the last agent used).
    const rewritten = { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>), lastAgent: 'agent-local-2' };
    fs.writeFileSync(file, `${JSON.stringify(rewritten, null, 2)}\n`);
    expect(uninstallMcp({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    const after = parsed();
    expect(after.lastAgent).toBe('agent-local-2');
    expect(after.agents[0]).not.toHaveProperty('mcpServers');
    expect(after.agents[1]!.mcpServers).toEqual([NOTION]);
  });

  it('an agent made after the install is not covered: status says not current, installing again adds it', () => {
    fs.writeFileSync(file, SETTINGS);
    installMcp({ agent: 'letta', endpoint, environment });
    const withNew = JSON.parse(fs.readFileSync(file, 'utf8')) as Parsed;
    withNew.agents.push({ agentId: 'agent-local-3' });
    fs.writeFileSync(file, `${JSON.stringify(withNew, null, 2)}\n`);
    expect(mcpInstallStatus({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ installed: true, current: false });
    expect(installMcp({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(parsed().agents.map((a) => a.mcpServers?.length)).toEqual([1, 2, 1]);
  });

  it('an older token is replaced in place, not added twice', () => {
    fs.writeFileSync(file, SETTINGS);
    installMcp({ agent: 'letta', endpoint: mcpEndpoint(8765, 'tok_old_0000000000000000000000000000'), environment });
    installMcp({ agent: 'letta', endpoint, environment });
    expect(parsed().agents.map((a) => a.mcpServers)).toEqual([[BATON], [NOTION, BATON]]);
  });

  it('with no agent yet, --agent letta says why and writes nothing; "all agents" leaves Letta out', () => {
    const bare = `${JSON.stringify({ preferredBackendMode: 'local' }, null, 2)}\n`;
    fs.writeFileSync(file, bare);
    const [result] = installMcp({ agent: 'letta', endpoint, environment });
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(result!.message).toMatch(/no Letta Code agent yet.*per agent/);
    expect(fs.readFileSync(file, 'utf8')).toBe(bare);
    expect(installMcp({ agent: 'all', endpoint, environment }).map((o) => o.agent)).not.toContain('letta');
    expect(fs.readFileSync(file, 'utf8')).toBe(bare);
  });

  it.each([
    ['"agents" is not a list', '{ "agents": {} }\n'],
    ["an agent's mcpServers is not a list", '{ "agents": [ { "agentId": "a", "mcpServers": { "x": 1 } } ] }\n'],
    ['the file is not JSON', '{ "agents": [ \n'],
  ])('refuses a file where %s, writing nothing', (_what, text) => {
    fs.writeFileSync(file, text);
    const [result] = installMcp({ agent: 'letta', endpoint, environment });
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('a symlinked settings.json is edited where the link points; the link stays a link', () => {
    const real = path.join(tmp.dir, 'dotfiles', 'letta-settings.json');
    fs.mkdirSync(path.dirname(real), { recursive: true });
    fs.writeFileSync(real, SETTINGS);
    fs.symlinkSync(real, file);
    expect(installMcp({ agent: 'letta', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain(TOKEN);
    uninstallMcp({ agent: 'letta', endpoint, environment });
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe(SETTINGS);
  });
});
