import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { takeGitSnapshot } from './git-snapshot.js';
import { computeGitDrift, describeDrift } from './git-drift.js';

const NOW = new Date('2026-11-22T10:00:00Z');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

function write(dir: string, file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
}

describe('git snapshot and drift on a real repository', () => {
  let tmp: { dir: string; cleanup(): void };
  let repo: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-git-');
    repo = path.join(tmp.dir, 'repo');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, 'src/app.js', 'console.log("hi")\n');
    write(repo, 'README.md', '# demo\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'Initial commit');
    git(repo, 'checkout', '-q', '-b', 'feature/x');
  });
  afterEach(() => tmp.cleanup());

  it('records branch, HEAD, staged, unstaged and untracked files', async () => {
    write(repo, 'src/app.js', 'console.log("hi!")\n');
    write(repo, 'staged.txt', 'a\n');
    git(repo, 'add', 'staged.txt');
    write(repo, 'notes/new.md', 'n\n');
    const { snapshot, fingerprint } = await takeGitSnapshot(repo, NOW);
    expect(snapshot).toMatchObject({
      isRepo: true,
      error: null,
      branch: 'feature/x',
      headSubject: 'Initial commit',
      staged: ['staged.txt'],
      unstaged: ['src/app.js'],
      untracked: ['notes/new.md'],
      ahead: 0,
      behind: 0,
      upstream: null,
      takenAt: NOW.toISOString(),
    });
    expect(snapshot.head).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(Object.keys(fingerprint).sort()).toEqual(['notes/new.md', 'src/app.js', 'staged.txt']);
  });

  it('reports commits, files changed, a further edit to an already-dirty file, and a branch switch', async () => {
    write(repo, 'src/app.js', 'console.log("dirty at checkpoint")\n');
    const { snapshot, fingerprint } = await takeGitSnapshot(repo, NOW);

    // No change yet: no drift.
    const none = await computeGitDrift(repo, snapshot, fingerprint, NOW);
    expect(none).toMatchObject({ error: null, branchSwitched: null, commitsSince: [], filesChangedSince: [], workTreeChanged: false });
    expect(describeDrift(none)).toBe('Git: no drift since the checkpoint.');

    // After the checkpoint: the dirty file changes again, a commit lands, a new file appears, then a branch switch.
    write(repo, 'src/app.js', 'console.log("changed again")\n');
    write(repo, 'lib/util.js', 'export {}\n');
    git(repo, 'add', 'lib/util.js');
    git(repo, 'commit', '-q', '-m', 'Add util');
    write(repo, 'scratch.txt', 's\n');
    git(repo, 'checkout', '-q', '-b', 'feature/y');

    const drift = await computeGitDrift(repo, snapshot, fingerprint, NOW);
    expect(drift.error).toBeNull();
    expect(drift.branchSwitched).toEqual({ from: 'feature/x', to: 'feature/y' });
    expect(drift.commitsSince.map((c) => c.subject)).toEqual(['Add util']);
    expect(drift.filesChangedSince).toEqual(['lib/util.js', 'scratch.txt', 'src/app.js']);
    expect(drift.workTreeChanged).toBe(true);
    expect(drift.now!.branch).toBe('feature/y');
    expect(describeDrift(drift)).toBe('Git drift: branch switched from feature/x to feature/y; 1 commit since the checkpoint; 3 files changed since.');
  });

  it('does not count a dirty file that stayed exactly as it was', async () => {
    write(repo, 'src/app.js', 'console.log("dirty")\n');
    const { snapshot, fingerprint } = await takeGitSnapshot(repo, NOW);
    const drift = await computeGitDrift(repo, snapshot, fingerprint, NOW);
    expect(drift.filesChangedSince).toEqual([]);
    expect(drift.workTreeChanged).toBe(false);
  });

  it('reports a folder that is not a repository, and a cwd that is gone, without throwing', async () => {
    const plain = path.join(tmp.dir, 'plain');
    fs.mkdirSync(plain);
    const notRepo = await takeGitSnapshot(plain, NOW);
    expect(notRepo.snapshot.isRepo).toBe(false);
    expect(notRepo.snapshot.error).toMatch(/not a git repository/);

    const { snapshot, fingerprint } = await takeGitSnapshot(repo, NOW);
    fs.rmSync(repo, { recursive: true, force: true });
    const drift = await computeGitDrift(repo, snapshot, fingerprint, NOW);
    expect(drift.error).toMatch(/no longer exists/);
    expect(describeDrift(drift)).toMatch(/^Git: working directory no longer exists/);
    expect((await takeGitSnapshot(null, NOW)).snapshot.error).toBe('session has no working directory');
  });
});
