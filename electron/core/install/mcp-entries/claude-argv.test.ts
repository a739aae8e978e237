/**
 * `baton mcp install` never hands the token to another process's command line (readable by every
 * local user in /proc/<pid>/cmdline while it runs): a `claude` on PATH records every argv it gets.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/baton.mjs');
let tmp: { dir: string; cleanup(): void };
beforeEach(() => (tmp = makeTempDir('baton-claude-argv-')));
afterEach(() => tmp.cleanup());

it('registers with Claude Code without the token in any argv, and uninstall gives the file back', () => {
  const home = path.join(tmp.dir, 'home');
  const batonHome = path.join(tmp.dir, 'baton');
  const fake = path.join(tmp.dir, 'bin');
  const log = path.join(tmp.dir, 'argv.log');
  fs.mkdirSync(fake, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(fake, 'claude'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(home, '.claude.json'), '{\n  "numStartups": 1\n}\n');
  const env = { PATH: `${fake}:${process.env.PATH}`, HOME: home, BATON_HOME: batonHome };
  execFileSync(process.execPath, [bin, 'mcp', 'install', '--agent', 'claude'], { env, encoding: 'utf8' });
  const token = fs.readFileSync(path.join(batonHome, 'token'), 'utf8').trim();
  expect(token.length).toBeGreaterThan(16);
  expect(fs.readFileSync(path.join(home, '.claude.json'), 'utf8')).toContain(`Bearer ${token}`);
  const argvs = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
  expect(argvs).not.toContain(token);
  execFileSync(process.execPath, [bin, 'mcp', 'uninstall', '--agent', 'claude'], { env, encoding: 'utf8' });
  expect(fs.readFileSync(path.join(home, '.claude.json'), 'utf8')).toBe('{\n  "numStartups": 1\n}\n');
}, 60_000);
