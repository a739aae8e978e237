import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from '../mcp-entries/mcp-installer.js';
import { mcpEndpoint } from '../endpoint.js';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';
const endpoint = mcpEndpoint(8765, TOKEN);
const NOW = () => new Date('2026-11-25T10:00:00.000Z');

describe('baton mcp install --agent pi (Baton’s pi extension)', () => {
  let tmp: { dir: string; cleanup(): void };
  let environment: Environment;
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-pi-ext-');
    environment = { env: { BATON_HOME: path.join(tmp.dir, 'baton data') }, platform: 'linux', home: tmp.dir };
    file = path.join(tmp.dir, '.pi', 'agent', 'extensions', 'baton.ts');
  });
  afterEach(() => tmp.cleanup());

  it('writes the extension with the URL and the token file’s path, never the token; private mode', () => {
    const dry = installMcp({ agent: 'pi', endpoint, environment, dryRun: true });
    expect(dry).toEqual([expect.objectContaining({ agent: 'pi', file, ok: true, changed: false })]);
    expect(dry[0]!.diff).toContain("'http://127.0.0.1:8765/mcp'");
    expect(fs.existsSync(file)).toBe(false);

    const [done] = installMcp({ agent: 'pi', endpoint, environment });
    expect(done).toMatchObject({ ok: true, changed: true, backup: null });
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('// Baton extension for pi')).toBe(true);
    expect(text).toContain(`const BATON_MCP_URL = process.env.BATON_MCP_URL || 'http://127.0.0.1:8765/mcp';`);
    expect(text).toContain(`const BATON_TOKEN_FILE = process.env.BATON_TOKEN_FILE || '${path.join(tmp.dir, 'baton data', 'token')}';`);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('__BATON_');
    // The handoff hook's command line: this Baton's Node and bin/baton.mjs, as a JSON list.
    const hook = /const BATON_HOOK = process\.env\.BATON_HOOK_COMMAND \|\| '(.*)';/.exec(text)?.[1];
    expect(JSON.parse(hook!.replace(/\\"/g, '"'))).toEqual([process.execPath, expect.stringMatching(/bin\/baton\.mjs$/)]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'pi', endpoint, environment })).toEqual([{ agent: 'pi', file, installed: true, current: true, registeredUrl: endpoint.url }]);
    // Same again: nothing to do. A new token needs no reinstall (the extension reads the file).
    expect(installMcp({ agent: 'pi', endpoint, environment })[0]).toMatchObject({ ok: true, changed: false });
    expect(mcpInstallStatus({ agent: 'pi', endpoint: mcpEndpoint(8765, 'tok_other_0123456789012345678901234567'), environment })[0]!.current).toBe(true);
  });

  it('a new port replaces Baton’s file with a backup; status says it is stale until then', () => {
    installMcp({ agent: 'pi', endpoint, environment });
    const moved = mcpEndpoint(9999, TOKEN);
    expect(mcpInstallStatus({ agent: 'pi', endpoint: moved, environment })[0]).toMatchObject({ installed: true, current: false });
    const [done] = installMcp({ agent: 'pi', endpoint: moved, environment, now: NOW });
    expect(done).toMatchObject({ ok: true, changed: true, backup: `${file}.bak-20261125T100000Z` });
    expect(fs.readFileSync(done!.backup!, 'utf8')).toContain('8765');
    expect(fs.readFileSync(file, 'utf8')).toContain('9999');
    // pi loads extensions/*.ts only: the backup is not picked up as a second extension.
    expect(path.basename(done!.backup!).endsWith('.ts')).toBe(false);
    // The one backup policy of every agent file Baton edits: private, and never over an earlier backup.
    expect(fs.statSync(done!.backup!).mode & 0o777).toBe(0o600);
    const [again] = installMcp({ agent: 'pi', endpoint: mcpEndpoint(7777, TOKEN), environment, now: NOW });
    expect(again!.backup).toBe(`${file}.bak-20261125T100000Z-1`);
    expect(fs.readFileSync(again!.backup!, 'utf8')).toContain('9999');
  });

  it('never replaces or removes a file that is not Baton’s', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'export default function mine() {}\n');
    expect(installMcp({ agent: 'pi', endpoint, environment })[0]).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/not Baton's pi extension/) });
    expect(uninstallMcp({ agent: 'pi', endpoint, environment })[0]).toMatchObject({ ok: false, changed: false });
    expect(fs.readFileSync(file, 'utf8')).toBe('export default function mine() {}\n');
    expect(mcpInstallStatus({ agent: 'pi', endpoint, environment })[0]).toMatchObject({ installed: false, current: false });
  });

  it('uninstalls only Baton’s file; honours PI_CODING_AGENT_DIR; "all" includes pi', () => {
    const agentDir = path.join(tmp.dir, 'pi-elsewhere');
    const moved: Environment = { ...environment, env: { ...environment.env, PI_CODING_AGENT_DIR: agentDir } };
    const all = installMcp({ agent: 'all', endpoint, environment: moved, dryRun: true });
    expect(all.find((r) => r.agent === 'pi')).toMatchObject({ ok: true, file: path.join(agentDir, 'extensions', 'baton.ts') });
    installMcp({ agent: 'pi', endpoint, environment: moved });
    expect(uninstallMcp({ agent: 'pi', endpoint, environment: moved, dryRun: true })[0]).toMatchObject({ ok: true, changed: false });
    expect(fs.existsSync(path.join(agentDir, 'extensions', 'baton.ts'))).toBe(true);
    expect(uninstallMcp({ agent: 'pi', endpoint, environment: moved })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(path.join(agentDir, 'extensions', 'baton.ts'))).toBe(false);
    expect(uninstallMcp({ agent: 'pi', endpoint, environment: moved })[0]).toMatchObject({ ok: true, changed: false, message: expect.stringMatching(/does not exist/) });
  });
});
