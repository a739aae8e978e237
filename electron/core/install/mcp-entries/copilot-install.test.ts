/** `baton mcp install --agent copilot`: GitHub Copilot CLI's mcp-config.json, other servers kept, token private. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_copilot_abcdefghijklmnopqrstuvwxyz0';
const endpoint = mcpEndpoint(8765, TOKEN);
// As `/mcp add` writes it (2-space JSON).
const CONFIG = `{
  "mcpServers": {
    "playwright": {
      "type": "local",
      "command": "npx",
      "args": ["@playwright/mcp@latest"],
      "tools": ["*"]
    }
  }
}
`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
beforeEach(() => {
  tmp = makeTempDir('baton-copilot-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
});
afterEach(() => tmp.cleanup());

describe('GitHub Copilot CLI (~/.copilot/mcp-config.json)', () => {
  it('adds mcpServers.baton (http, every tool), keeps the other servers, makes the file private; uninstall gives the file back', () => {
    const file = path.join(environment.home, '.copilot', 'mcp-config.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, CONFIG);
    fs.chmodSync(file, 0o644);
    const [result] = installMcp({ agent: 'copilot', endpoint, environment });
    expect(result).toMatchObject({ agent: 'copilot', file, ok: true, changed: true });
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(after.mcpServers.baton).toEqual({ type: 'http', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` }, tools: ['*'] });
    expect(after.mcpServers.playwright).toBeDefined();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'copilot', endpoint, environment })).toEqual([expect.objectContaining({ agent: 'copilot', installed: true, current: true })]);
    expect(uninstallMcp({ agent: 'copilot', endpoint, environment })[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('follows COPILOT_HOME, as Copilot CLI does', () => {
    environment.env.COPILOT_HOME = path.join(tmp.dir, 'cp-home');
    const [result] = installMcp({ agent: 'copilot', endpoint, environment });
    expect(result!.file).toBe(path.join(tmp.dir, 'cp-home', 'mcp-config.json'));
    expect(fs.statSync(result!.file).mode & 0o777).toBe(0o600);
  });
});
