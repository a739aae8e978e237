import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AutoRule } from '../../../shared/auto-continue.js';
import { ruleForCwd, validateRule } from './auto-rules.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-auto-rules-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const rule = (folder: string, worktreeRoot: string | null = null): AutoRule => ({ folder, worktreeRoot, targets: ['codex'], when: ['limit'], createdAt: '', updatedAt: '' });

describe('folder matching', () => {
  it('matches the folder, a subfolder, and another folder of the same git work tree; nothing else', () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(repo, 'app', 'src'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'docs'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'other'));
    execFileSync('git', ['init', '-q', repo]);
    const r = validateRule({ folder: path.join(repo, 'app'), targets: ['codex'] });
    expect(r.worktreeRoot).toBe(repo);
    const rules = [{ ...r, createdAt: '', updatedAt: '' }];
    expect(ruleForCwd(rules, path.join(repo, 'app'))?.folder).toBe(path.join(repo, 'app'));
    expect(ruleForCwd(rules, path.join(repo, 'app', 'src'))?.folder).toBe(path.join(repo, 'app'));
    expect(ruleForCwd(rules, path.join(repo, 'docs'))?.folder).toBe(path.join(repo, 'app'));
    expect(ruleForCwd(rules, path.join(tmp, 'other'))).toBeNull();
    expect(ruleForCwd(rules, null)).toBeNull();
    expect(ruleForCwd([], path.join(repo, 'app'))).toBeNull();
  });

  it('prefers the most specific folder, and sees through symlinks', () => {
    fs.mkdirSync(path.join(tmp, 'a', 'b', 'c'), { recursive: true });
    fs.symlinkSync(path.join(tmp, 'a', 'b'), path.join(tmp, 'link'));
    const rules = [rule(path.join(tmp, 'a')), rule(path.join(tmp, 'a', 'b'))];
    expect(ruleForCwd(rules, path.join(tmp, 'a', 'b', 'c'))?.folder).toBe(path.join(tmp, 'a', 'b'));
    expect(ruleForCwd(rules, path.join(tmp, 'link', 'c'))?.folder).toBe(path.join(tmp, 'a', 'b'));
    expect(ruleForCwd(rules, path.join(tmp, 'a'))?.folder).toBe(path.join(tmp, 'a'));
  });
});

describe('a new rule', () => {
  it('keeps the agents in the user order without repeats, and defaults to limit hits', () => {
    fs.mkdirSync(path.join(tmp, 'p'));
    expect(validateRule({ folder: path.join(tmp, 'p', '.'), targets: ['codex', ' gemini', 'codex'] })).toEqual({ folder: path.join(tmp, 'p'), worktreeRoot: null, targets: ['codex', 'gemini'], when: ['limit'] });
  });

  it('refuses a missing folder, a file, an unknown agent or trigger, and an empty list, with the reason', () => {
    fs.writeFileSync(path.join(tmp, 'file'), '');
    expect(() => validateRule({ folder: path.join(tmp, 'nope'), targets: ['codex'] })).toThrow(/is not a folder/);
    expect(() => validateRule({ folder: path.join(tmp, 'file'), targets: ['codex'] })).toThrow(/is not a folder/);
    expect(() => validateRule({ folder: tmp, targets: ['cursor'] })).toThrow(/Unknown agent "cursor"/);
    expect(() => validateRule({ folder: tmp, targets: [] })).toThrow(/at least one agent/);
    expect(() => validateRule({ folder: tmp, targets: ['codex'], when: ['lunch'] })).toThrow(/Unknown trigger "lunch"/);
  });
});
