/**
 * Issue #25 item 5: every config Baton edits is given back. Real temp files, real symlinks, real
 * chmod/chown (the suite runs as root, which writes through any mode: the mode bits are checked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import type { Environment } from '../paths.js';
import { installHooks, uninstallHooks, type HooksOptions } from './hooks/hooks-installer.js';
import type { AgentId } from '../../../shared/model.js';
import { mcpEndpoint } from './endpoint.js';
import { installMcp, uninstallMcp } from './mcp-entries/mcp-installer.js';
import { mcpConfigFile } from './config/config-locations.js';
import { codexEnvFile } from './config/codex-env.js';

const TOKEN = 'tok_give_back_0123456789abcdefghijklmnop';
const endpoint = mcpEndpoint(8765, TOKEN);
const RUNTIME = { node: '/usr/bin/node', script: '/opt/baton/bin/baton.mjs' };

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
let clock = 0;
const now = () => new Date(Date.UTC(2026, 8, 1, 10, 0, clock++));

beforeEach(() => {
  tmp = makeTempDir('baton-give-back-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
});
afterEach(() => tmp.cleanup());

function put(file: string, content: string | Buffer, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}
const mcp = (agent: AgentId | 'all') => ({ agent, endpoint, environment, dataDir, now });
const hooks = (agent: AgentId): HooksOptions => ({ agent, environment, runtime: RUNTIME, dataDir, now });
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Each config kind, as a user may have it, and the install/uninstall that edits it. */
const KINDS: { name: string; file: () => string; content: string; install(): unknown; uninstall(): unknown }[] = [
  {
    name: 'Claude ~/.claude.json (MCP)',
    file: () => mcpConfigFile('claude', environment),
    content: '{\r\n  "numStartups": 3,\r\n  "projects": {}\r\n}',
    install: () => installMcp(mcp('claude')),
    uninstall: () => uninstallMcp(mcp('claude')),
  },
  {
    name: 'Claude settings.json (hooks)',
    file: () => path.join(environment.home, '.claude', 'settings.json'),
    content: '\uFEFF{\n\t"model": "opus",\n\t"hooks": {}\n}\n',
    install: () => installHooks(hooks('claude')),
    uninstall: () => uninstallHooks(hooks('claude')),
  },
  {
    name: 'Codex config.toml (MCP) with CRLF',
    file: () => mcpConfigFile('codex', environment),
    content: '# mine\r\nmodel = "gpt-5"\r\n\r\n[tui]\r\nnotifications = true',
    install: () => installMcp(mcp('codex')),
    uninstall: () => uninstallMcp(mcp('codex')),
  },
  {
    name: 'Codex .env',
    file: () => codexEnvFile(environment),
    content: 'OPENAI_API_KEY=sk-mine',
    install: () => installMcp(mcp('codex')),
    uninstall: () => uninstallMcp(mcp('codex')),
  },
  {
    name: 'Codex hooks.json',
    file: () => path.join(environment.home, '.codex', 'hooks.json'),
    content: '{ "hooks": { "Stop": [] } }',
    install: () => installHooks(hooks('codex')),
    uninstall: () => uninstallHooks(hooks('codex')),
  },
  {
    name: 'OpenCode opencode.jsonc',
    file: () => path.join(environment.home, '.config', 'opencode', 'opencode.jsonc'),
    content: '// my config\n{\n  "theme": "dark", // comment\n}\n',
    install: () => installMcp(mcp('opencode')),
    uninstall: () => uninstallMcp(mcp('opencode')),
  },
  {
    name: 'Kilo Code kilo.json (MCP)',
    file: () => path.join(environment.home, '.config', 'kilo', 'kilo.json'),
    content: '{\n  "model": "mock/mock-model",\n  "autoupdate": false\n}\n',
    install: () => installMcp(mcp('kilo')),
    uninstall: () => uninstallMcp(mcp('kilo')),
  },
  {
    name: 'Hermes config.yaml with CRLF (MCP)',
    file: () => mcpConfigFile('hermes', environment),
    content: '# Hermes\r\nmodel:   claude   # spaced\r\nlist:\r\n- a\r\n- b\r\nmcp_servers:\r\n',
    install: () => installMcp(mcp('hermes')),
    uninstall: () => uninstallMcp(mcp('hermes')),
  },
  {
    name: 'Hermes config.yaml with CRLF (hooks)',
    file: () => mcpConfigFile('hermes', environment),
    content: 'model: x\r\nflow: [1,2]\r\nhooks: {}\r\n',
    install: () => installHooks(hooks('hermes')),
    uninstall: () => uninstallHooks(hooks('hermes')),
  },
  {
    name: 'Gemini settings.json (MCP + hooks)',
    file: () => mcpConfigFile('gemini', environment),
    content: '{\n    "theme": "GitHub"\n}',
    install: () => [installMcp(mcp('gemini')), installHooks(hooks('gemini'))],
    uninstall: () => [uninstallHooks(hooks('gemini')), uninstallMcp(mcp('gemini'))],
  },
  {
    name: 'Qwen settings.json (MCP)',
    file: () => mcpConfigFile('qwen', environment),
    content: '{"mcpServers":{}}',
    install: () => installMcp(mcp('qwen')),
    uninstall: () => uninstallMcp(mcp('qwen')),
  },
];

describe('install then uninstall gives back every byte', () => {
  for (const kind of KINDS) {
    it(kind.name, () => {
      const file = put(kind.file(), kind.content, 0o640);
      kind.install();
      expect(fs.readFileSync(file).equals(Buffer.from(kind.content))).toBe(false);
      kind.uninstall();
      expect(fs.readFileSync(file, 'utf8')).toBe(kind.content);
      expect(modeOf(file)).toBe(0o640);
    });
  }

  it('a file Baton created is removed again, and a brand-new install leaves no file behind', () => {
    installMcp(mcp('all'));
    installHooks(hooks('claude'));
    uninstallHooks(hooks('claude'));
    uninstallMcp(mcp('all'));
    for (const agent of ['claude', 'codex', 'opencode', 'hermes', 'gemini', 'qwen', 'pi'] as const) expect(fs.existsSync(mcpConfigFile(agent, environment))).toBe(false);
    expect(fs.existsSync(codexEnvFile(environment))).toBe(false);
    expect(fs.existsSync(path.join(environment.home, '.claude', 'settings.json'))).toBe(false);
  });
});

describe('after the user edited the file, only what Baton added goes', () => {
  it('JSON: the "mcpServers" Baton created goes with its entry; one the user had stays', () => {
    const created = put(mcpConfigFile('claude', environment), '{\n  "a": 1\n}\n');
    const kept = put(mcpConfigFile('gemini', environment), '{\n  "mcpServers": {}\n}\n');
    installMcp(mcp('all'));
    fs.writeFileSync(created, fs.readFileSync(created, 'utf8').replace('"a": 1', '"a": 2'));
    fs.writeFileSync(kept, fs.readFileSync(kept, 'utf8').replace('{', '{\n  "b": true,'));
    uninstallMcp(mcp('all'));
    expect(JSON.parse(fs.readFileSync(created, 'utf8'))).toEqual({ a: 2 });
    expect(JSON.parse(fs.readFileSync(kept, 'utf8'))).toEqual({ b: true, mcpServers: {} });
  });

  it('YAML: no "mcp_servers:" (null) is left where Baton created it', () => {
    const file = put(mcpConfigFile('hermes', environment), 'model: x\n');
    installMcp(mcp('hermes'));
    fs.appendFileSync(file, 'extra: 1\n');
    uninstallMcp(mcp('hermes'));
    expect(fs.readFileSync(file, 'utf8')).toBe('model: x\nextra: 1\n');
  });

  it('hooks: an empty "hooks" the user had stays; the event lists Baton created go', () => {
    const file = put(path.join(environment.home, '.codex', 'hooks.json'), '{\n  "hooks": {}\n}\n');
    installHooks(hooks('codex'));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{', '{\n  "x": 1,'));
    uninstallHooks(hooks('codex'));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ x: 1, hooks: {} });
  });
});

describe('a symlinked config (dotfile managers)', () => {
  it('is edited where the chain points; the links stay links', () => {
    const real = put(path.join(tmp.dir, 'dotfiles', 'claude.json'), '{\n  "a": 1\n}\n');
    const middle = path.join(tmp.dir, 'dotfiles', 'link-to-real');
    fs.symlinkSync('claude.json', middle); // relative link
    fs.mkdirSync(environment.home, { recursive: true });
    const link = mcpConfigFile('claude', environment);
    fs.symlinkSync(middle, link);
    const [done] = installMcp(mcp('claude'));
    expect(done).toMatchObject({ ok: true, changed: true });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.lstatSync(middle).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain(TOKEN);
    // The backup (which may hold secrets) goes next to the path Baton was given, not into the dotfiles repo.
    expect(path.dirname(done!.backup!)).toBe(environment.home);
    uninstallMcp(mcp('claude'));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe('{\n  "a": 1\n}\n');
  });

  it('hooks follow the link too', () => {
    const real = put(path.join(tmp.dir, 'dotfiles', 'settings.json'), '{}\n');
    const link = path.join(environment.home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(real, link);
    installHooks(hooks('claude'));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain('hook session-start');
    uninstallHooks(hooks('claude'));
    expect(fs.readFileSync(real, 'utf8')).toBe('{}\n');
  });
});

describe('bytes Baton did not mean to change', () => {
  it('non-UTF-8 bytes in TOML and YAML survive install and uninstall', () => {
    const latin = (s: string) => Buffer.from(s, 'latin1');
    const toml = put(mcpConfigFile('codex', environment), latin('# café à la crème\r\nname = "Zoë"\r\n'));
    const yaml = put(mcpConfigFile('hermes', environment), latin('# déjà vu\nname: Zoë\n'));
    installMcp(mcp('codex'));
    installMcp(mcp('hermes'));
    for (const [file, word] of [[toml, 'Zoë'], [yaml, 'Zoë']] as const) {
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(latin(word))).toBe(true);
      expect(bytes.includes(Buffer.from('\uFFFD', 'utf8'))).toBe(false);
    }
    expect(fs.readFileSync(toml).toString('latin1')).toMatch(/\r\n\[mcp_servers\.baton\]\r\n/);
    fs.appendFileSync(yaml, latin('more: ü\n')); // the user's own edit: uninstall removes only Baton's lines
    uninstallMcp(mcp('codex'));
    uninstallMcp(mcp('hermes'));
    expect(fs.readFileSync(toml).equals(latin('# café à la crème\r\nname = "Zoë"\r\n'))).toBe(true);
    expect(fs.readFileSync(yaml).equals(latin('# déjà vu\nname: Zoë\nmore: ü\n'))).toBe(true);
  });

  it("a non-UTF-8 file is refused when Baton's entry would need non-ASCII bytes", () => {
    const file = put(mcpConfigFile('hermes', environment), Buffer.from('name: Zoë\n', 'latin1'));
    const runtime = { node: '/usr/bin/node', script: '/opt/bâton/bin/baton.mjs' };
    const [r] = installHooks({ ...hooks('hermes'), runtime });
    expect(r).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(/not UTF-8/) });
    expect(fs.readFileSync(file).equals(Buffer.from('name: Zoë\n', 'latin1'))).toBe(true);
  });

  it('Hermes keeps its CRLFs while installed', () => {
    const file = put(mcpConfigFile('hermes', environment), 'a: 1\r\nb: 2\r\n');
    installMcp(mcp('hermes'));
    installHooks(hooks('hermes'));
    const text = fs.readFileSync(file, 'utf8');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text.startsWith('a: 1\r\nb: 2\r\n')).toBe(true);
  });
});

describe('configs Baton cannot edit safely are refused, nothing written', () => {
  const cases: [string, () => string, string | Buffer, RegExp][] = [
    ['read-only', () => mcpConfigFile('claude', environment), '{}\n', /read-only \(mode 0444\)/],
    ['invalid JSON', () => mcpConfigFile('gemini', environment), '{ "a": ', /not valid JSON/],
    ['invalid TOML', () => mcpConfigFile('codex', environment), 'a = = 1\n', /not valid TOML/],
    ['duplicate YAML keys', () => mcpConfigFile('hermes', environment), 'a: 1\nmcp_servers: {}\na: 2\n', /key "a" twice/],
  ];
  for (const [what, file, content, reason] of cases) {
    it(what, () => {
      const f = put(file(), content, what === 'read-only' ? 0o444 : 0o644);
      const before = fs.readFileSync(f);
      const agent = f.endsWith('.toml') ? 'codex' : f.endsWith('.yaml') ? 'hermes' : f.includes('.gemini') ? 'gemini' : 'claude';
      const [r] = installMcp(mcp(agent));
      expect(r).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(reason) });
      expect(fs.readFileSync(f).equals(before)).toBe(true);
      expect(modeOf(f)).toBe(what === 'read-only' ? 0o444 : 0o644);
      expect(fs.readdirSync(path.dirname(f)).filter((n) => n.includes('.bak-'))).toEqual([]);
    });
  }

  it('a read-only hooks file is refused as well', () => {
    const f = put(path.join(environment.home, '.codex', 'hooks.json'), '{}\n', 0o400);
    expect(installHooks(hooks('codex'))[0]).toMatchObject({ ok: false, message: expect.stringMatching(/read-only/) });
    expect(fs.readFileSync(f, 'utf8')).toBe('{}\n');
  });
});

describe('owner, mode and the token', () => {
  it("keeps the owner and group of a config Baton edits as another user (root editing a user's file)", () => {
    const f = put(mcpConfigFile('codex', environment), 'model = "x"\n', 0o664);
    fs.chownSync(f, 4321, 4322);
    installMcp(mcp('codex'));
    expect(fs.statSync(f)).toMatchObject({ uid: 4321, gid: 4322 });
    expect(modeOf(f)).toBe(0o664); // config.toml holds no token: its mode stays
    uninstallMcp(mcp('codex'));
    expect(fs.statSync(f)).toMatchObject({ uid: 4321, gid: 4322 });
  });

  it('backups holding the token are 0600 and gone after uninstall, also those of an older token', () => {
    const f = put(mcpConfigFile('claude', environment), '{\n  "a": 1\n}\n', 0o644);
    installMcp(mcp('claude'));
    // A second install with a new token backs up the file holding the first one.
    const [again] = installMcp({ ...mcp('claude'), endpoint: mcpEndpoint(8765, 'tok_second_second_second_second_0000') });
    expect(fs.readFileSync(again!.backup!, 'utf8')).toContain(TOKEN);
    expect(modeOf(again!.backup!)).toBe(0o600);
    fs.appendFileSync(f, ' '); // the user's edit: uninstall cannot simply give the old bytes back
    uninstallMcp({ ...mcp('claude'), endpoint: mcpEndpoint(8765, 'tok_second_second_second_second_0000') });
    const left = fs.readdirSync(environment.home).filter((n) => n.includes('.bak-'));
    expect(left.length).toBeGreaterThan(0); // the backup from before Baton's first install stays
    for (const name of left) {
      const text = fs.readFileSync(path.join(environment.home, name), 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('tok_second');
    }
    expect(fs.readFileSync(f, 'utf8')).not.toContain('tok_');
  });

  it('the .env of Codex leaves no backup with the token', () => {
    put(codexEnvFile(environment), 'A=1\n', 0o600);
    installMcp(mcp('codex'));
    installMcp({ ...mcp('codex'), endpoint: mcpEndpoint(8765, 'tok_second_second_second_second_0000') });
    uninstallMcp(mcp('codex'));
    const dir = path.dirname(codexEnvFile(environment));
    for (const name of fs.readdirSync(dir).filter((n) => n.includes('.bak-'))) expect(fs.readFileSync(path.join(dir, name), 'utf8')).not.toMatch(/tok_/);
  });
});
