/** `baton mcp install --agent gemini`: Gemini CLI's settings.json, format kept, token private. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from '../endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';

const TOKEN = 'tok_gemini_abcdefghijklmnopqrstuvwxyz01';
const endpoint = mcpEndpoint(8765, TOKEN);
// As Gemini CLI writes it (2-space JSON), plus a comment: its settings loader strips comments.
const SETTINGS = `{
  // my auth
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "mcpServers": {
    "github": {
      "httpUrl": "https://api.githubcopilot.com/mcp/"
    }
  }
}
`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
beforeEach(() => {
  tmp = makeTempDir('baton-gemini-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
});
afterEach(() => tmp.cleanup());

describe('Gemini CLI (~/.gemini/settings.json)', () => {
  it('adds mcpServers.baton (streamable HTTP), keeps the rest, backs up, makes the file private; uninstall restores it', () => {
    const file = path.join(environment.home, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, SETTINGS, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const [result] = installMcp({ agent: 'gemini', endpoint, environment });
    expect(result).toMatchObject({ agent: 'gemini', file, ok: true, changed: true });
    expect(fs.readFileSync(result!.backup!, 'utf8')).toBe(SETTINGS);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toContain('// my auth');
    expect(after).toContain('"selectedType": "gemini-api-key"');
    expect(after).toContain('"httpUrl": "http://127.0.0.1:8765/mcp"');
    expect(after).toContain(`"Authorization": "Bearer ${TOKEN}"`);
    expect(after).toContain('"httpUrl": "https://api.githubcopilot.com/mcp/"');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600); // the token is readable by its owner only
    expect(mcpInstallStatus({ agent: 'gemini', endpoint, environment })).toEqual([expect.objectContaining({ agent: 'gemini', installed: true, current: true })]);
    const [removed] = uninstallMcp({ agent: 'gemini', endpoint, environment });
    expect(removed).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(SETTINGS);
  });

  it('follows GEMINI_CLI_HOME, as Gemini CLI does', () => {
    environment.env.GEMINI_CLI_HOME = path.join(tmp.dir, 'gem-home');
    const [result] = installMcp({ agent: 'gemini', endpoint, environment });
    expect(result!.file).toBe(path.join(tmp.dir, 'gem-home', '.gemini', 'settings.json'));
    expect(fs.statSync(result!.file).mode & 0o777).toBe(0o600);
  });
});
