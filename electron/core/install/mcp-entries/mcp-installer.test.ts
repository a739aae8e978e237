import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from './mcp-installer.js';
import { mcpEndpoint } from '../endpoint.js';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';
const endpoint = mcpEndpoint(8765, TOKEN);

const CLAUDE_JSON = `{
  "numStartups": 42,
  "installMethod": "native",
  "autoUpdates": false,
  "tipsHistory": {
    "new-user-warmup": 7
  },
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {
        "Authorization": "Bearer \${GITHUB_PAT}"
      }
    }
  },
  "projects": {
    "/home/ana/code/shop": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  },
  "userID": "0f3c9e"
}
`;

const CODEX_TOML = `# Codex configuration
model = "gpt-5-codex"
approval_policy = "on-request"   # ask before running commands

[profiles.fast]
model = "gpt-5-mini"

# Docs server, added by hand
[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp"]
env = { DOCS_KEY = "k-123" }

[mcp_servers.docs.tools]
enabled = ["search"]

[tui]
notifications = true
`;

const OPENCODE_JSONC = `{
  "$schema": "https://opencode.ai/config.json",
  // My theme
  "theme": "tokyonight",
  "mcp": {
    /* local filesystem helper */
    "fs": { "type": "local", "command": ["npx", "-y", "fs-mcp"], "enabled": true },
  },
  "plugin": ["opencode-wakatime"]
}
`;

const HERMES_YAML = `# Hermes config
model:
  default: anthropic/claude-sonnet-4   # main model
  provider: openrouter

terminal:
  backend: local
  cwd: "."

mcp_servers:
  # GitHub tools
  github:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-github"]
    env:
      GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_xxx"

display:
  compact: false
`;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
const now = () => new Date('2026-09-01T10:20:30Z');

function file(rel: string): string {
  return path.join(tmp.dir, rel);
}
function write(rel: string, text: string): string {
  fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
  fs.writeFileSync(file(rel), text);
  return file(rel);
}

beforeEach(() => {
  tmp = makeTempDir('baton-mcp-install-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
});
afterEach(() => tmp.cleanup());

describe('Claude Code (~/.claude.json, user scope)', () => {
  it('adds mcpServers.baton, keeps every other key and formatting, backs up, and uninstall restores the bytes', () => {
    const f = write('home/.claude.json', CLAUDE_JSON);
    const [result] = installMcp({ agent: 'claude', endpoint, environment, now });
    expect(result).toMatchObject({ agent: 'claude', file: f, changed: true, ok: true });
    expect(result!.backup).toBe(`${f}.bak-20260901T102030Z`);
    expect(fs.readFileSync(result!.backup!, 'utf8')).toBe(CLAUDE_JSON);

    const after = fs.readFileSync(f, 'utf8');
    const parsed = JSON.parse(after) as Record<string, Record<string, unknown>>;
    expect(parsed.mcpServers!.baton).toEqual({ type: 'http', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(parsed.mcpServers!.github).toEqual(JSON.parse(CLAUDE_JSON).mcpServers.github);
    const { mcpServers: _a, ...restAfter } = parsed;
    const { mcpServers: _b, ...restBefore } = JSON.parse(CLAUDE_JSON) as Record<string, unknown>;
    expect(restAfter).toEqual(restBefore);
    // Only lines were added: the original text is a subsequence of the new one.
    expect(result!.diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'))).toEqual([]);

    const [removed] = uninstallMcp({ agent: 'claude', endpoint, environment, now: () => new Date('2026-09-01T10:20:31Z') });
    expect(removed).toMatchObject({ changed: true, ok: true });
    expect(fs.readFileSync(f, 'utf8')).toBe(CLAUDE_JSON);
  });

  it('creates a private ~/.claude.json when none exists, and is idempotent', () => {
    const [first] = installMcp({ agent: 'claude', endpoint, environment });
    expect(first).toMatchObject({ changed: true, backup: null });
    expect(fs.statSync(first!.file).mode & 0o777).toBe(0o600);
    const [second] = installMcp({ agent: 'claude', endpoint, environment });
    expect(second).toMatchObject({ changed: false, ok: true, diff: '' });
    expect(fs.readdirSync(path.dirname(first!.file)).filter((n) => n.includes('.bak-'))).toEqual([]);
  });

  it('honours CLAUDE_CONFIG_DIR', () => {
    environment.env.CLAUDE_CONFIG_DIR = file('claude-dir');
    const [r] = installMcp({ agent: 'claude', endpoint, environment });
    expect(r!.file).toBe(path.join(file('claude-dir'), '.claude.json'));
  });

  it('refuses a broken file and leaves it untouched', () => {
    const f = write('home/.claude.json', '{ "numStartups": 3, ');
    const [r] = installMcp({ agent: 'claude', endpoint, environment });
    expect(r).toMatchObject({ ok: false, changed: false });
    expect(r!.message).toMatch(/not valid JSON.*untouched/);
    expect(fs.readFileSync(f, 'utf8')).toBe('{ "numStartups": 3, ');
  });

  it('updates a stale token in place', () => {
    installMcp({ agent: 'claude', endpoint, environment });
    const [r] = installMcp({ agent: 'claude', endpoint: mcpEndpoint(9000, 'new_token_new_token_new_token_new_token'), environment });
    expect(r!.changed).toBe(true);
    const entry = (JSON.parse(fs.readFileSync(r!.file, 'utf8')) as { mcpServers: Record<string, { url: string }> }).mcpServers.baton!;
    expect(entry.url).toBe('http://127.0.0.1:9000/mcp');
  });
});

describe('Codex (config.toml)', () => {
  it('appends [mcp_servers.baton], keeps comments and tables, and uninstall restores the bytes', () => {
    const f = write('home/.codex/config.toml', CODEX_TOML);
    const [r] = installMcp({ agent: 'codex', endpoint, environment });
    expect(r).toMatchObject({ changed: true, ok: true });
    const after = fs.readFileSync(f, 'utf8');
    expect(after.startsWith(CODEX_TOML)).toBe(true);
    const parsed = parseToml(after) as { mcp_servers: Record<string, unknown> };
    expect(parsed.mcp_servers.baton).toEqual({
      url: 'http://127.0.0.1:8765/mcp',
      bearer_token_env_var: 'BATON_MCP_TOKEN',
      startup_timeout_sec: 20,
      tool_timeout_sec: 120,
    });
    expect(after).not.toContain(TOKEN);
    expect(parsed.mcp_servers.docs).toEqual((parseToml(CODEX_TOML) as { mcp_servers: Record<string, unknown> }).mcp_servers.docs);

    uninstallMcp({ agent: 'codex', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(CODEX_TOML);
  });

  it('puts the token in $CODEX_HOME/.env (0600) beside the user\'s own lines, and takes only that line back', () => {
    write('home/.codex/config.toml', CODEX_TOML);
    const userEnv = '# mine\nOPENAI_API_KEY=sk-x\n';
    const envFile = write('home/.codex/.env', userEnv);
    fs.chmodSync(envFile, 0o644);
    const results = installMcp({ agent: 'codex', endpoint, environment });
    expect(results.map((r) => r.file)).toEqual([file('home/.codex/config.toml'), envFile]);
    expect(fs.readFileSync(envFile, 'utf8')).toBe(`${userEnv}BATON_MCP_TOKEN=${TOKEN}\n`);
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    expect(mcpInstallStatus({ agent: 'codex', endpoint, environment })[0]).toMatchObject({ installed: true, current: true });
    // A regenerated token: the entry is the same, the .env line is stale, status says so.
    expect(mcpInstallStatus({ agent: 'codex', endpoint: mcpEndpoint(8765, 'tok_new'), environment })[0]).toMatchObject({ installed: true, current: false });
    installMcp({ agent: 'codex', endpoint: mcpEndpoint(8765, 'tok_new'), environment });
    expect(fs.readFileSync(envFile, 'utf8')).toBe(`${userEnv}BATON_MCP_TOKEN=tok_new\n`);
    uninstallMcp({ agent: 'codex', endpoint, environment });
    expect(fs.readFileSync(envFile, 'utf8')).toBe(userEnv);
  });

  it('replaces an existing baton table (and its sub-tables) where it stands', () => {
    const old = CODEX_TOML.replace('[tui]', '[mcp_servers.baton]\nurl = "http://127.0.0.1:1234/mcp" # old port\n\n[mcp_servers.baton.env]\nX = "1"\n\n[tui]');
    const f = write('home/.codex/config.toml', old);
    installMcp({ agent: 'codex', endpoint, environment });
    const after = fs.readFileSync(f, 'utf8');
    expect(after).toContain('# Docs server, added by hand');
    expect(after).not.toContain(':1234/');
    expect(after).not.toContain('\n\n\n');
    expect(after).not.toContain('[mcp_servers.baton.env]');
    expect(after.indexOf('[mcp_servers.baton]')).toBeLessThan(after.indexOf('[tui]'));
    const parsed = parseToml(after) as Record<string, unknown>;
    expect(parsed.tui).toEqual({ notifications: true });
  });

  it('refuses to edit an inline-table entry it cannot rewrite safely', () => {
    const inline = 'mcp_servers = { baton = { url = "http://x/mcp" } }\n';
    const f = write('home/.codex/config.toml', inline);
    const [r] = installMcp({ agent: 'codex', endpoint, environment });
    expect(r!.ok).toBe(false);
    expect(r!.message).toMatch(/by hand/);
    expect(fs.readFileSync(f, 'utf8')).toBe(inline);
  });

  it('honours CODEX_HOME and keeps CRLF line endings', () => {
    environment.env.CODEX_HOME = file('codex-home');
    const crlf = CODEX_TOML.replace(/\n/g, '\r\n');
    const f = write('codex-home/config.toml', crlf);
    installMcp({ agent: 'codex', endpoint, environment });
    const after = fs.readFileSync(f, 'utf8');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    uninstallMcp({ agent: 'codex', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(crlf);
  });
});

describe('OpenCode (opencode.jsonc)', () => {
  it('adds a remote entry under mcp, keeps comments and trailing commas, and uninstall restores the bytes', () => {
    environment.env.XDG_CONFIG_HOME = file('xdg');
    const f = write('xdg/opencode/opencode.jsonc', OPENCODE_JSONC);
    const [r] = installMcp({ agent: 'opencode', endpoint, environment });
    expect(r).toMatchObject({ file: f, changed: true });
    const after = fs.readFileSync(f, 'utf8');
    expect(after).toContain('// My theme');
    expect(after).toContain('/* local filesystem helper */');
    const parsed = parseJsonc(after) as { mcp: Record<string, unknown>; theme: string };
    expect(parsed.mcp.baton).toEqual({ type: 'remote', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` }, enabled: true });
    expect(parsed.mcp.fs).toBeDefined();
    uninstallMcp({ agent: 'opencode', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(OPENCODE_JSONC);
  });

  it('writes into mcp.servers for an OpenCode 2 shaped file', () => {
    const f = write('home/.config/opencode/opencode.json', '{\n  "mcp": {\n    "servers": {}\n  }\n}\n');
    installMcp({ agent: 'opencode', endpoint, environment });
    const parsed = JSON.parse(fs.readFileSync(f, 'utf8')) as { mcp: { servers: Record<string, unknown> } };
    expect(Object.keys(parsed.mcp.servers)).toEqual(['baton']);
  });

  it('creates opencode.json with its $schema when there is no config', () => {
    const [r] = installMcp({ agent: 'opencode', endpoint, environment });
    const parsed = JSON.parse(fs.readFileSync(r!.file, 'utf8')) as Record<string, unknown>;
    expect(r!.file).toBe(path.join(environment.home, '.config', 'opencode', 'opencode.json'));
    expect(parsed.$schema).toBe('https://opencode.ai/config.json');
  });
});

describe('the token stays out of configs that can read it from a file, and private in the others', () => {
  const withFile = mcpEndpoint(8765, TOKEN, undefined, '/home/ana/.config/baton/token');

  it('OpenCode names the token file through its {file:…} substitution', () => {
    const [r] = installMcp({ agent: 'opencode', endpoint: withFile, environment });
    const text = fs.readFileSync(r!.file, 'utf8');
    expect(text).not.toContain(TOKEN);
    const parsed = JSON.parse(text) as { mcp: { baton: { headers: Record<string, string> } } };
    expect(parsed.mcp.baton.headers.Authorization).toBe('Bearer {file:/home/ana/.config/baton/token}');
    expect(mcpInstallStatus({ agent: 'opencode', endpoint: withFile, environment })[0]).toMatchObject({ installed: true, current: true });
  });

  it('an existing world-readable config that receives the token becomes 0600, content otherwise as before', () => {
    const f = write('home/.hermes/config.yaml', HERMES_YAML);
    fs.chmodSync(f, 0o644);
    installMcp({ agent: 'hermes', endpoint, environment });
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    uninstallMcp({ agent: 'hermes', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(HERMES_YAML);
  });

  it('a config already registering the token is tightened to 0600 without a byte changed', () => {
    const f = file('home/.gemini/settings.json');
    installMcp({ agent: 'gemini', endpoint, environment });
    fs.chmodSync(f, 0o664);
    const before = fs.readFileSync(f, 'utf8');
    const [r] = installMcp({ agent: 'gemini', endpoint, environment });
    expect(r).toMatchObject({ changed: false, ok: true });
    expect(r!.message).toMatch(/0600/);
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(f, 'utf8')).toBe(before);
  });

  it('status names the registered URL, so a port mismatch shows', () => {
    installMcp({ agent: 'hermes', endpoint: mcpEndpoint(28765, TOKEN), environment });
    const [s] = mcpInstallStatus({ agent: 'hermes', endpoint, environment });
    expect(s).toMatchObject({ installed: true, current: false, registeredUrl: 'http://127.0.0.1:28765/mcp' });
  });
});

describe('Hermes (config.yaml)', () => {
  it('adds mcp_servers.baton, keeps comments and other servers, and uninstall restores the bytes', () => {
    environment.env.HERMES_HOME = file('hermes');
    const f = write('hermes/config.yaml', HERMES_YAML);
    const [r] = installMcp({ agent: 'hermes', endpoint, environment });
    expect(r).toMatchObject({ file: f, changed: true });
    const after = fs.readFileSync(f, 'utf8');
    for (const comment of ['# Hermes config', '# main model', '# GitHub tools']) expect(after).toContain(comment);
    const parsed = parseYaml(after) as { mcp_servers: Record<string, unknown> };
    expect(parsed.mcp_servers.baton).toEqual({ url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` }, timeout: 120, connect_timeout: 60 });
    expect(parsed.mcp_servers.github).toEqual((parseYaml(HERMES_YAML) as { mcp_servers: Record<string, unknown> }).mcp_servers.github);
    uninstallMcp({ agent: 'hermes', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(HERMES_YAML);
  });

  it('fills an empty `mcp_servers:` key', () => {
    const f = write('home/.hermes/config.yaml', 'model:\n  default: x\nmcp_servers:\n');
    installMcp({ agent: 'hermes', endpoint, environment });
    expect((parseYaml(fs.readFileSync(f, 'utf8')) as { mcp_servers: Record<string, unknown> }).mcp_servers.baton).toBeDefined();
  });
});

describe('Qwen Code (settings.json)', () => {
  const QWEN_SETTINGS = `{
  // Qwen Code reads comments in settings.json
  "security": { "auth": { "selectedType": "openai" } },
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "@acme/docs-mcp"] }
  }
}
`;

  it('adds mcpServers.baton over streamable HTTP in QWEN_HOME, keeps the rest, and uninstall restores the bytes', () => {
    environment.env.QWEN_HOME = file('qwen-home');
    const f = write('qwen-home/settings.json', QWEN_SETTINGS);
    const [r] = installMcp({ agent: 'qwen', endpoint, environment });
    expect(r).toMatchObject({ file: f, changed: true, ok: true });
    const after = fs.readFileSync(f, 'utf8');
    expect(after).toContain('// Qwen Code reads comments in settings.json');
    const parsed = parseJsonc(after) as { mcpServers: Record<string, unknown>; security: unknown };
    expect(parsed.mcpServers.baton).toEqual({ httpUrl: 'http://127.0.0.1:8765/mcp', headers: { Authorization: `Bearer ${TOKEN}` }, alwaysLoadTools: true });
    expect(parsed.mcpServers.docs).toEqual({ command: 'npx', args: ['-y', '@acme/docs-mcp'] });
    expect(mcpInstallStatus({ agent: 'qwen', endpoint, environment })).toEqual([{ agent: 'qwen', file: f, installed: true, current: true, registeredUrl: endpoint.url }]);
    uninstallMcp({ agent: 'qwen', endpoint, environment });
    expect(fs.readFileSync(f, 'utf8')).toBe(QWEN_SETTINGS);
  });

  it('creates ~/.qwen/settings.json readable by its owner only', () => {
    const [r] = installMcp({ agent: 'qwen', endpoint, environment });
    expect(r!.file).toBe(path.join(environment.home, '.qwen', 'settings.json'));
    expect(fs.statSync(r!.file).mode & 0o777).toBe(0o600);
  });
});

describe('all agents', () => {
  it('dry run prints diffs and writes nothing', () => {
    write('home/.codex/config.toml', CODEX_TOML);
    write('home/.continue/config.yaml', 'name: Local Config\n'); // cn's config is edited only where it exists
    const results = installMcp({ agent: 'all', endpoint, environment, dryRun: true });
    expect(results.map((r) => r.agent)).toEqual(['claude', 'codex', 'codex', 'opencode', 'hermes', 'gemini', 'qwen', 'pi', 'cline', 'kilo', 'copilot', 'continue', 'droid']);
    for (const r of results) {
      expect(r.changed).toBe(false);
      expect(r.message).toMatch(/dry run/);
      expect(r.diff).toContain('+');
      // Codex's second outcome is its .env, which holds the token, not the URL.
      expect(r.diff).toContain(r.file.endsWith('.env') ? `+BATON_MCP_TOKEN=${TOKEN}` : '127.0.0.1:8765/mcp');
    }
    expect(fs.readFileSync(file('home/.codex/config.toml'), 'utf8')).toBe(CODEX_TOML);
    expect(fs.existsSync(file('home/.claude.json'))).toBe(false);
  });

  it('status reports installed and current per agent', () => {
    installMcp({ agent: 'codex', endpoint, environment });
    const status = mcpInstallStatus({ agent: 'all', endpoint, environment });
    expect(status.find((s) => s.agent === 'codex')).toMatchObject({ installed: true, current: true });
    expect(status.find((s) => s.agent === 'claude')).toMatchObject({ installed: false });
  });

  it('uninstall of a missing file is a no-op', () => {
    const results = uninstallMcp({ agent: 'all', endpoint, environment });
    expect(results.every((r) => r.ok && !r.changed)).toBe(true);
  });
});
