import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { hooksStatus, installHooks, uninstallHooks, type HooksOptions } from './hooks-installer.js';
import { hookCommand, hookRuntimeFor } from './hook-command.js';

const RUNTIME = { node: '/opt/node 22/bin/node', script: '/home/u/baton/bin/baton.mjs' };

describe('baton hooks install|uninstall|status', () => {
  let tmp: { dir: string; cleanup(): void };
  let environment: Environment;
  let options: HooksOptions;

  beforeEach(() => {
    tmp = makeTempDir();
    environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
    options = { agent: 'claude', environment, runtime: RUNTIME, dataDir: path.join(tmp.dir, 'baton'), now: () => new Date('2026-11-25T12:00:00Z') };
  });
  afterEach(() => tmp.cleanup());

  const claudeSettings = () => path.join(environment.home, '.claude', 'settings.json');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };

  it("Claude Code: adds SessionStart/PreCompact/Stop next to the user's hooks, backs up, is idempotent, and uninstall restores the bytes", () => {
    const original = '{\n    "model": "opus",\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n    }\n}\n';
    write(claudeSettings(), original);
    const [installed] = installHooks(options);
    expect(installed).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(installed!.backup!, 'utf8')).toBe(original);
    const after = JSON.parse(fs.readFileSync(claudeSettings(), 'utf8')) as { model: string; hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(after.model).toBe('opus');
    expect(after.hooks.Stop).toHaveLength(2);
    expect(after.hooks.Stop![0]!.hooks[0]!.command).toBe('say done');
    expect(after.hooks.SessionStart![0]!.hooks[0]!.command).toBe("'/opt/node 22/bin/node' '/home/u/baton/bin/baton.mjs' hook session-start --agent claude");
    expect(after.hooks.PreCompact![0]!.hooks[0]!.command).toContain('hook pre-compact --agent claude');
    // The user's own line stays as written.
    expect(fs.readFileSync(claudeSettings(), 'utf8')).toContain('"Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] },');

    const [again] = installHooks(options);
    expect(again).toMatchObject({ ok: true, changed: false });
    expect(hooksStatus(options)[0]).toMatchObject({ installed: true, notes: [] });

    const [removed] = uninstallHooks(options);
    expect(removed).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(claudeSettings(), 'utf8')).toBe(original);
    expect(hooksStatus(options)[0]!.installed).toBe(false);
  });

  it('after the user edits the file, uninstall removes only Baton’s entries and keeps the edit', () => {
    write(claudeSettings(), '{\n  "model": "opus"\n}\n');
    installHooks(options);
    const edited = fs.readFileSync(claudeSettings(), 'utf8').replace('"opus"', '"sonnet"');
    fs.writeFileSync(claudeSettings(), edited);
    uninstallHooks(options);
    expect(JSON.parse(fs.readFileSync(claudeSettings(), 'utf8'))).toEqual({ model: 'sonnet' });
  });

  it('a moved Baton replaces its old entries instead of adding a second set', () => {
    installHooks(options);
    const moved = { ...options, runtime: { node: '/usr/bin/node', script: '/srv/baton/bin/baton.mjs' } };
    expect(hooksStatus(moved)[0]!.notes.join(' ')).toMatch(/another Baton/);
    installHooks(moved);
    const text = fs.readFileSync(claudeSettings(), 'utf8');
    expect(text).not.toContain('/home/u/baton');
    expect((text.match(/hook session-start/g) ?? []).length).toBe(1);
  });

  it("warns that Claude Code ignores a settings.json with comments (it reads strict JSON)", () => {
    write(claudeSettings(), '{\n  // mine\n  "model": "opus"\n}\n');
    installHooks(options);
    expect(hooksStatus(options)[0]!.notes.join('\n')).toMatch(/strict JSON/);
  });

  it('refuses a file that does not parse and leaves it untouched', () => {
    write(claudeSettings(), '{ "model": "opus", ');
    const [result] = installHooks(options);
    expect(result!.ok).toBe(false);
    expect(result!.message).toMatch(/not valid JSON/);
    expect(fs.readFileSync(claudeSettings(), 'utf8')).toBe('{ "model": "opus", ');
  });

  it('a dry run shows the diff and writes nothing', () => {
    const [result] = installHooks({ ...options, dryRun: true });
    expect(result!.diff).toContain('+');
    expect(result!.diff).toContain('hook session-start --agent claude');
    expect(fs.existsSync(claudeSettings())).toBe(false);
  });

  it('Codex: creates hooks.json, uninstall deletes the file it created; status explains trust and a disabled feature', () => {
    const codex = { ...options, agent: 'codex' as const };
    const hooksJson = path.join(environment.home, '.codex', 'hooks.json');
    installHooks(codex);
    expect(Object.keys((JSON.parse(fs.readFileSync(hooksJson, 'utf8')) as { hooks: object }).hooks)).toEqual(['SessionStart', 'PreCompact', 'Stop']);
    write(path.join(environment.home, '.codex', 'config.toml'), '[features]\ncodex_hooks = false\n');
    const notes = hooksStatus(codex)[0]!.notes.join('\n');
    expect(notes).toMatch(/codex_hooks = false/);
    expect(notes).toMatch(/\/hooks/);
    uninstallHooks(codex);
    expect(fs.existsSync(hooksJson)).toBe(false);
  });

  it("Hermes: shell hooks in config.yaml with comments kept; status says what cannot be done and asks for Hermes' approval", () => {
    const hermes = { ...options, agent: 'hermes' as const };
    const config = path.join(environment.home, '.hermes', 'config.yaml');
    const original = '# my Hermes\nmodel:\n  default: gpt-5  # the usual\nhooks:\n  post_tool_call:\n    - command: ~/.hermes/agent-hooks/fmt.sh\n';
    write(config, original);
    installHooks(hermes);
    const text = fs.readFileSync(config, 'utf8');
    expect(text).toContain('# my Hermes');
    expect(text).toContain('# the usual');
    expect(text).toContain('~/.hermes/agent-hooks/fmt.sh');
    expect(text).toMatch(/pre_llm_call:\n\s+- command: .*hook session-start --agent hermes/);
    expect(text).toMatch(/on_session_end:\n\s+- command: .*hook stop --agent hermes/);
    const status = hooksStatus(hermes)[0]!;
    expect(status.installed).toBe(true);
    expect(status.notes.join('\n')).toMatch(/PreCompact checkpoint: Hermes runs no shell hook before it compresses/);
    expect(status.notes.join('\n')).toMatch(/approval in Hermes/);
    // Once approved in Hermes' allow-list, only the unsupported part is left.
    const commands = text.match(/command: (.*hook .*)$/gm)!.map((l) => l.replace(/^command: /, ''));
    write(
      path.join(environment.home, '.hermes', 'shell-hooks-allowlist.json'),
      JSON.stringify({ approvals: [{ event: 'pre_llm_call', command: JSON.parse(commands[0]!) as string }, { event: 'on_session_end', command: JSON.parse(commands[1]!) as string }] }),
    );
    expect(hooksStatus(hermes)[0]!.notes.join('\n')).not.toMatch(/approval in Hermes/);
    uninstallHooks(hermes);
    expect(fs.readFileSync(config, 'utf8')).toBe(original);
  });

  it('Gemini CLI: SessionStart and AfterAgent in settings.json with timeouts in milliseconds, next to mcpServers; status names what is off and not installed', () => {
    const gemini = { ...options, agent: 'gemini' as const, environment: { ...environment, env: { GEMINI_CLI_HOME: path.join(tmp.dir, 'gh') } } };
    const file = path.join(tmp.dir, 'gh', '.gemini', 'settings.json');
    const original = '{\n  // mine\n  "mcpServers": { "baton": { "httpUrl": "http://127.0.0.1:1/mcp" } }\n}\n';
    write(file, original);
    expect(installHooks(gemini)[0]).toMatchObject({ ok: true, changed: true });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('// mine');
    const hooks = (JSON.parse(text.replace('// mine', '')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> }).hooks;
    expect(hooks.SessionStart![0]!.hooks[0]).toMatchObject({ command: expect.stringContaining('hook session-start --agent gemini'), timeout: 10_000 });
    expect(hooks.AfterAgent![0]!.hooks[0]!.command).toContain('hook stop --agent gemini');
    const status = hooksStatus(gemini)[0]!;
    expect(status).toMatchObject({ installed: true, file });
    expect(status.notes.join('\n')).toMatch(/PreCompress checkpoint: Gemini CLI runs a PreCompress hook, but/);
    write(file, text.replace('"mcpServers"', '"hooksConfig": { "enabled": false },\n  "mcpServers"'));
    expect(hooksStatus(gemini)[0]!.notes.join('\n')).toMatch(/Gemini CLI hooks are switched off/);
    write(file, text);
    uninstallHooks(gemini);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('Qwen Code: SessionStart and Stop in settings.json with timeouts in seconds; disableAllHooks is named', () => {
    const qwen = { ...options, agent: 'qwen' as const };
    const file = path.join(environment.home, '.qwen', 'settings.json');
    write(file, '{\n  "disableAllHooks": true\n}\n');
    installHooks(qwen);
    const hooks = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> }).hooks;
    expect(hooks.SessionStart![0]!.hooks[0]).toMatchObject({ command: expect.stringContaining('hook session-start --agent qwen'), timeout: 10 });
    expect(hooks.Stop![0]!.hooks[0]!.command).toContain('hook stop --agent qwen');
    const notes = hooksStatus(qwen)[0]!.notes.join('\n');
    expect(notes).toMatch(/Qwen Code hooks are switched off .*disableAllHooks/);
    expect(notes).toMatch(/PreCompact checkpoint: Qwen Code/);
    uninstallHooks(qwen);
    expect(fs.readFileSync(file, 'utf8')).toBe('{\n  "disableAllHooks": true\n}\n');
  });

  it("Copilot CLI: a hooks file of Baton's own in $COPILOT_HOME/hooks (sessionStart, agentStop), the user's hook files untouched; uninstall removes it", () => {
    const copilot = { ...options, agent: 'copilot' as const, environment: { ...environment, env: { COPILOT_HOME: path.join(tmp.dir, 'cp home') } } };
    const theirs = path.join(tmp.dir, 'cp home', 'hooks', 'mine.json');
    const mine = '{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"echo hi"}]}}\n';
    write(theirs, mine);
    const [installed] = installHooks(copilot);
    const file = path.join(tmp.dir, 'cp home', 'hooks', 'baton.json');
    expect(installed).toMatchObject({ ok: true, changed: true, file });
    // Claude's nested groups, which Copilot CLI 1.0.102 reads; camelCase events answer camelCase JSON.
    const hooks = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]> }).hooks;
    expect(Object.keys(hooks)).toEqual(['sessionStart', 'agentStop']);
    expect(hooks.sessionStart![0]!.hooks[0]).toEqual({ type: 'command', command: expect.stringContaining('hook session-start --agent copilot'), timeout: 10 });
    expect(hooks.agentStop![0]!.hooks[0]!.command).toContain('hook stop --agent copilot');
    const status = hooksStatus(copilot)[0]!;
    expect(status).toMatchObject({ installed: true, file });
    expect(status.notes.join('\n')).toMatch(/preCompact checkpoint: Copilot CLI runs a preCompact hook, but/);
    expect(installHooks(copilot)[0]).toMatchObject({ ok: true, changed: false });
    const [removed] = uninstallHooks(copilot);
    expect(removed).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(theirs, 'utf8')).toBe(mine);
    expect(hooksStatus(copilot)[0]!.installed).toBe(false);

    // In a home without a hooks folder, the folder Baton made goes with its file.
    const fresh = { ...copilot, environment: { ...environment, env: {} } };
    installHooks(fresh);
    expect(fs.existsSync(path.join(environment.home, '.copilot', 'hooks', 'baton.json'))).toBe(true);
    uninstallHooks(fresh);
    expect(fs.existsSync(path.join(environment.home, '.copilot', 'hooks'))).toBe(false);
  });

  it("Letta Code: SessionStart and Stop in ~/.letta/settings.json (ms timeouts) beside its agents' MCP servers; Letta's rewrite is survived; hooks.disabled is named", () => {
    const letta = { ...options, agent: 'letta' as const };
    const file = path.join(environment.home, '.letta', 'settings.json');
    // As Letta writes it: JSON.stringify with 2 spaces, no final newline.
    const original = JSON.stringify({ preferredBackendMode: 'local', agents: [{ agentId: 'agent-local-1', baseUrl: 'local:/x', mcpServers: [{ name: 'notion', transport: 'http', url: 'https://mcp.notion.com/mcp' }] }] }, null, 2);
    write(file, original);
    expect(installHooks(letta)[0]).toMatchObject({ ok: true, changed: true });
    const text = fs.readFileSync(file, 'utf8');
    const parsed = JSON.parse(text) as { hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]>; agents: unknown[] };
    expect(parsed.hooks.SessionStart![0]!.hooks[0]).toMatchObject({ type: 'command', command: expect.stringContaining('hook session-start --agent letta'), timeout: 10_000 });
    expect(parsed.hooks.Stop![0]!.hooks[0]!.command).toContain('hook stop --agent letta');
    expect(parsed.agents).toEqual((JSON.parse(original) as { agents: unknown[] }).agents);
    const status = hooksStatus(letta)[0]!;
    expect(status).toMatchObject({ installed: true, file });
    expect(status.notes.join('\n')).toMatch(/letta -p. runs no SessionStart hook/);
    expect(status.notes.join('\n')).toMatch(/PreCompact checkpoint: Letta Code/);
    write(file, text.replace('"hooks": {', '"hooks": {\n    "disabled": true,'));
    expect(hooksStatus(letta)[0]!.notes.join('\n')).toMatch(/Letta Code hooks are switched off/);
    write(file, text);
    uninstallHooks(letta);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);

    // Installed again, then Letta rewrites the whole document (another key changed): uninstall takes out only Baton's hooks.
    installHooks(letta);
    const rewritten = { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>), lastAgent: 'agent-local-1' };
    write(file, JSON.stringify(rewritten, null, 2));
    uninstallHooks(letta);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ ...(JSON.parse(original) as Record<string, unknown>), lastAgent: 'agent-local-1' });
  });

  it('writes the data dir into the command only when BATON_HOME moved it', () => {
    const env = { env: { HOME: environment.home }, platform: 'linux' as const, home: environment.home };
    expect(hookRuntimeFor(env, path.join(environment.home, '.config', 'baton')).dataDir).toBeUndefined();
    const moved = hookRuntimeFor({ ...env, env: { BATON_HOME: '/srv/baton data' } }, '/srv/baton data');
    expect(hookCommand(moved, 'stop', 'codex')).toMatch(/hook stop --agent codex --data-dir '\/srv\/baton data'$/);
  });

  it('without any Node, the app runs the hook with its own Electron as Node, through env', () => {
    const command = hookCommand({ node: '/usr/bin/env', nodeArgs: ['ELECTRON_RUN_AS_NODE=1', '/opt/Baton/baton'], script: '/opt/Baton/resources/app.asar.unpacked/bin/baton.mjs' }, 'session-start', 'claude');
    expect(command).toBe("'/usr/bin/env' 'ELECTRON_RUN_AS_NODE=1' '/opt/Baton/baton' '/opt/Baton/resources/app.asar.unpacked/bin/baton.mjs' hook session-start --agent claude");
  });
});
