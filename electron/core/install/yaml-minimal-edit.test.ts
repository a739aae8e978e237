/**
 * Issue #25 item 5, "never change a byte Baton did not mean to", for Hermes' YAML: with a
 * hand-kept, untidy config (CRLF, a document start, comments everywhere, 4-space and odd
 * indentation, quoted keys and values, anchors and aliases, flow collections, blank lines), an
 * install adds only Baton's lines and an uninstall takes exactly those away. Real files through
 * the real installers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { diffLines } from 'diff';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import type { Environment } from '../paths.js';
import { mcpEndpoint } from './endpoint.js';
import { installMcp, uninstallMcp } from './mcp-entries/mcp-installer.js';
import { installHooks, uninstallHooks } from './hooks/hooks-installer.js';
import { mcpConfigFile } from './config/config-locations.js';

const TOKEN = 'tok_yaml_minimal_0123456789abcdefghijklmn';
const endpoint = mcpEndpoint(8765, TOKEN);
const RUNTIME = { node: '/usr/bin/node', script: '/opt/baton/bin/baton.mjs' };

const UNTIDY = [
  '---',
  '# Hermes Agent — my config, kept by hand',
  'model:',
  '    default: "anthropic/claude-sonnet-4"   # quoted on purpose',
  "    provider:   'openrouter'",
  '',
  'defaults: &defaults',
  '    timeout: 30',
  '    retries:    2',
  'fallback: *defaults          # an alias',
  '',
  'toolsets: [ web,terminal ,  file ]',
  '"quoted key": yes',
  'empty_thing: {}',
  '',
  'mcp_servers:',
  '    # my servers',
  '    github:',
  '        command: npx',
  '        args: ["-y", "@modelcontextprotocol/server-github"]',
  '        env: {GITHUB_TOKEN: "ghp_placeholder"}',
  '',
  '',
  '    fs:   {command: mcp-fs}   # one-line entry',
  '',
  'hooks:',
  '    on_session_end:',
  '        -   command: "echo bye"    # odd dash spacing',
  '            timeout: 5',
  '',
  '# trailing comment',
  '',
].join('\r\n');

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
let file: string;
beforeEach(() => {
  tmp = makeTempDir('baton-yaml-minimal-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
  file = mcpConfigFile('hermes', environment);
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterEach(() => tmp.cleanup());

const mcp = () => ({ agent: 'hermes' as const, endpoint, environment, dataDir });
const hooks = () => ({ agent: 'hermes' as const, environment, runtime: RUNTIME, dataDir });

/** The lines the edit added; fails when it removed or changed any line of the original. */
function addedLines(before: string, after: string): string[] {
  const parts = diffLines(before, after);
  expect(parts.filter((p) => p.removed)).toEqual([]);
  return parts.filter((p) => p.added).flatMap((p) => p.value.split('\r\n').filter((l) => l !== ''));
}

describe("Hermes' untidy config.yaml", () => {
  it('an MCP install adds only the entry, in the mapping’s own indentation; uninstall gives back every byte', () => {
    fs.writeFileSync(file, UNTIDY);
    expect(installMcp(mcp())[0]).toMatchObject({ ok: true, changed: true });
    const after = fs.readFileSync(file, 'utf8');
    const added = addedLines(UNTIDY, after);
    expect(added[0]).toBe('    baton:');
    expect(added.slice(1).every((l) => l.startsWith('        '))).toBe(true);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    const data = parse(after) as { mcp_servers: Record<string, { url: string; headers: Record<string, string> }>; fallback: unknown };
    expect(data.mcp_servers.baton).toMatchObject({ url: endpoint.url, headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(Object.keys(data.mcp_servers)).toEqual(['github', 'fs', 'baton']);
    expect(data.fallback).toEqual({ timeout: 30, retries: 2 });
    uninstallMcp(mcp());
    expect(fs.readFileSync(file, 'utf8')).toBe(UNTIDY);
  });

  it('hooks: Baton’s item goes after the user’s under the same dash, a new event list beside it; uninstall gives back every byte', () => {
    fs.writeFileSync(file, UNTIDY);
    expect(installHooks(hooks())[0]).toMatchObject({ ok: true, changed: true });
    const after = fs.readFileSync(file, 'utf8');
    const added = addedLines(UNTIDY, after);
    expect(added.some((l) => /^ {8}- {3}command: .*hook stop --agent hermes/.test(l))).toBe(true);
    expect(added).toContain('    pre_llm_call:');
    const data = parse(after) as { hooks: Record<string, { command: string; timeout: number }[]> };
    expect(data.hooks.on_session_end).toEqual([{ command: 'echo bye', timeout: 5 }, { command: expect.stringContaining('hook stop --agent hermes'), timeout: 10 }]);
    expect(data.hooks.pre_llm_call).toEqual([{ command: expect.stringContaining('hook session-start --agent hermes'), timeout: 10 }]);
    uninstallHooks(hooks());
    expect(fs.readFileSync(file, 'utf8')).toBe(UNTIDY);
  });

  it('after the user’s own edit, uninstall cuts exactly Baton’s lines (MCP and hooks)', () => {
    fs.writeFileSync(file, UNTIDY);
    installMcp(mcp());
    installHooks(hooks());
    fs.appendFileSync(file, 'added_later:   true   # mine\r\n');
    uninstallHooks(hooks());
    uninstallMcp(mcp());
    expect(fs.readFileSync(file, 'utf8')).toBe(`${UNTIDY}added_later:   true   # mine\r\n`);
  });

  it('creates mcp_servers and hooks at the end, in the file’s indentation, when they are missing', () => {
    const small = '--- # doc\r\nmodel:\r\n    default: x   # four spaces\r\nlist:\r\n- a\r\n- b\r\n';
    fs.writeFileSync(file, small);
    installMcp(mcp());
    installHooks(hooks());
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith(small)).toBe(true);
    expect(after.slice(small.length)).toMatch(/^mcp_servers:\r\n {4}baton:\r\n {8}url: /);
    expect(after).toMatch(/\r\nhooks:\r\n {4}pre_llm_call:\r\n {8}- command: /);
    uninstallHooks(hooks());
    uninstallMcp(mcp());
    expect(fs.readFileSync(file, 'utf8')).toBe(small);
  });

  it('fills an empty "mcp_servers:" or "hooks: {}" in place', () => {
    const text = 'a: 1\nmcp_servers:   # none yet\nhooks: {}\nz: 2\n';
    fs.writeFileSync(file, text);
    installMcp(mcp());
    installHooks(hooks());
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toMatch(/^a: 1\nmcp_servers: {3}# none yet\n {2}baton:\n/);
    expect(after).toMatch(/\nhooks:\n {2}pre_llm_call:\n/);
    expect(after.endsWith('z: 2\n')).toBe(true);
    uninstallHooks(hooks());
    uninstallMcp(mcp());
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('YAML shapes Baton cannot splice are refused with the reason, never re-printed', () => {
  const cases: [string, string, () => unknown, RegExp][] = [
    ['a flow-style mcp_servers', 'mcp_servers: {github: {command: npx}}\n', () => installMcp(mcp())[0], /"mcp_servers" is written in flow style/],
    ['a flow-style hooks', 'hooks: {on_exit: [{command: echo}]}\n', () => installHooks(hooks())[0], /"hooks" is written in flow style/],
    ['a flow-style event list', 'hooks:\n  on_session_end: [{command: echo}]\n', () => installHooks(hooks())[0], /"hooks.on_session_end" is written in flow style/],
    ['a flow-style top level', '{model: x}\n', () => installMcp(mcp())[0], /top level is written in flow style/],
    ['mcp_servers as an alias', 'base: &b\n  x: {url: y}\nmcp_servers: *b\n', () => installMcp(mcp())[0], /"mcp_servers" is an alias/],
    ['an anchored mcp_servers another key reuses', 'mcp_servers: &s\n  x: {url: y}\nalso: *s\n', () => installMcp(mcp())[0], /could not change its entry without changing other lines/],
  ];
  for (const [what, text, run, reason] of cases) {
    it(what, () => {
      fs.writeFileSync(file, text);
      expect(run()).toMatchObject({ ok: false, changed: false, message: expect.stringMatching(reason) });
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    });
  }
});
