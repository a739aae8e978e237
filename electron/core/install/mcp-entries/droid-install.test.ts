/** `baton mcp install --agent droid`: Factory Droid's ~/.factory/mcp.json, other servers kept, token private, given back. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_droid_abcdefghijklmnopqrstuvwxyz01';
const endpoint = mcpEndpoint(8765, TOKEN);
// As `droid mcp add` (0.225.2) writes it: 2-space JSON, no trailing newline.
const CONFIG = `{
  "mcpServers": {
    "linear": {
      "command": "npx",
      "args": [
        "-y",
        "mcp-remote",
        "https://mcp.linear.app/sse"
      ],
      "disabled": false,
      "type": "stdio"
    }
  }
}`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
beforeEach(() => {
  tmp = makeTempDir('baton-droid-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
});
afterEach(() => tmp.cleanup());

describe('Factory Droid (~/.factory/mcp.json)', () => {
  it('adds mcpServers.baton (http), keeps the other servers, makes the file private; uninstall gives the file back byte for byte', () => {
    const file = path.join(environment.home, '.factory', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, CONFIG);
    fs.chmodSync(file, 0o644);
    const [result] = installMcp({ agent: 'droid', endpoint, environment });
    expect(result).toMatchObject({ agent: 'droid', file, ok: true, changed: true });
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(after.mcpServers.baton).toEqual({ type: 'http', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(after.mcpServers.linear).toBeDefined();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'droid', endpoint, environment })).toEqual([expect.objectContaining({ agent: 'droid', installed: true, current: true, registeredUrl: endpoint.url })]);
    expect(installMcp({ agent: 'droid', endpoint, environment })[0]).toMatchObject({ ok: true, changed: false });
    expect(uninstallMcp({ agent: 'droid', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('creates the file when Droid has none, and removes it again on uninstall', () => {
    const [result] = installMcp({ agent: 'droid', endpoint, environment });
    expect(result).toMatchObject({ ok: true, changed: true, file: path.join(environment.home, '.factory', 'mcp.json') });
    expect(fs.statSync(result!.file).mode & 0o777).toBe(0o600);
    expect(uninstallMcp({ agent: 'droid', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(result!.file)).toBe(false);
  });

  it('refuses an mcp.json that does not parse, and leaves it as it was', () => {
    const file = path.join(environment.home, '.factory', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"mcpServers": {');
    const [result] = installMcp({ agent: 'droid', endpoint, environment });
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(result!.message).toMatch(/not valid JSON/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"mcpServers": {');
  });

  it('follows FACTORY_HOME_OVERRIDE, as Droid does for all of ~/.factory', () => {
    environment.env.FACTORY_HOME_OVERRIDE = path.join(tmp.dir, 'elsewhere');
    const [result] = installMcp({ agent: 'droid', endpoint, environment });
    expect(result!.file).toBe(path.join(tmp.dir, 'elsewhere', '.factory', 'mcp.json'));
  });
});
