import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from './fixture-home.js';
import { fingerprint, guardSharedDir, sharedDir } from './shared-guard.js';

describe('shared-dir guard', () => {
  let tmp: { dir: string; cleanup(): void };
  let shared: string;

  beforeEach(() => {
    tmp = makeTempDir('baton-shared-guard-');
    shared = path.join(tmp.dir, 'shared');
    fs.mkdirSync(path.join(shared, 'fixtures', 'home', '.codex'), { recursive: true });
    fs.writeFileSync(path.join(shared, 'fixtures', 'expected.json'), '[]');
    fs.writeFileSync(path.join(shared, 'fixtures', 'home', '.codex', 'history.jsonl'), '{"a":1}\n');
    fs.symlinkSync('home', path.join(shared, 'fixtures', 'home-link'));
  });
  afterEach(() => tmp.cleanup());

  // A worktree's ../shared is a symlink to the real folder: lstat saw one link and never walked in.
  it('guards the folder a symlinked shared dir points to', () => {
    const link = path.join(tmp.dir, 'shared-link');
    fs.symlinkSync(shared, link);
    const check = guardSharedDir(link);
    fs.appendFileSync(path.join(shared, 'fixtures', 'expected.json'), ' ');
    expect(check).toThrow(/changed fixtures\/expected\.json: file/);
  });

  it('passes when nothing changed (reading is not changing)', () => {
    const check = guardSharedDir(shared);
    fs.readFileSync(path.join(shared, 'fixtures', 'expected.json'));
    expect(check).not.toThrow();
  });

  it.each([
    ['content', () => fs.appendFileSync(path.join(shared, 'fixtures', 'expected.json'), ' '), /changed fixtures\/expected\.json: file/],
    ['mode', () => fs.chmodSync(path.join(shared, 'fixtures', 'expected.json'), 0o600), /changed fixtures\/expected\.json: file \d+ \w+ → file 600/],
    ['a removed file', () => fs.rmSync(path.join(shared, 'fixtures', 'home', '.codex'), { recursive: true }), /removed fixtures\/home\/\.codex\/history\.jsonl/],
    ['an added file', () => fs.writeFileSync(path.join(shared, 'fixtures', 'home', '.codex', 'hooks.json'), '{}'), /added fixtures\/home\/\.codex\/hooks\.json/],
    ['a directory mode', () => fs.chmodSync(path.join(shared, 'fixtures', 'home'), 0o555), /changed fixtures\/home: dir \d+ → dir 555/],
    ['a symlink target', () => {
      fs.rmSync(path.join(shared, 'fixtures', 'home-link'));
      fs.symlinkSync('elsewhere', path.join(shared, 'fixtures', 'home-link'));
    }, /changed fixtures\/home-link: link home → link elsewhere/],
  ])('fails the run when a test changed %s', (_what, change, message) => {
    const check = guardSharedDir(shared);
    change();
    expect(check).toThrow(message);
  });

  it('fingerprints the real shared material (content of every fixture file)', () => {
    const prints = fingerprint(sharedDir());
    expect(prints.get('fixtures/expected.json')).toMatch(/^file \d+ [0-9a-f]{64}$/);
    expect([...prints.keys()].some((k) => k.startsWith('fixtures/home/.claude/'))).toBe(true);
  });
});
