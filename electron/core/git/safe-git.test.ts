// A repository whose own config names programs git would run by itself: fsmonitor, a hook run when
// the index is written, a clean filter and a textconv driver. Checkpoint (snapshot) and restore
// (drift) read it as before, and not one of those programs runs.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { takeGitSnapshot } from './git-snapshot.js';
import { computeGitDrift } from './git-drift.js';
import { filterDriverNames } from './safe-git.js';

const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env });

describe('git on a repository whose config runs programs', () => {
  let tmp: { dir: string; cleanup(): void };
  let repo: string;
  let markers: string;

  beforeEach(() => {
    tmp = makeTempDir('baton-evil-git-');
    repo = path.join(tmp.dir, 'repo');
    markers = path.join(tmp.dir, 'markers');
    fs.mkdirSync(markers);
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=evil diff=evil\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    // Armed only now, so setting the repository up ran none of it.
    const script = (name: string, tail = '') => {
      const file = path.join(tmp.dir, `${name}.sh`);
      fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\n${tail}`, { mode: 0o755 });
      return file;
    };
    git(repo, 'config', 'core.fsmonitor', script('fsmonitor'));
    git(repo, 'config', 'filter.evil.clean', script('clean', 'cat\n'));
    git(repo, 'config', 'filter.evil.smudge', script('smudge', 'cat\n'));
    git(repo, 'config', 'filter.evil.required', 'true');
    git(repo, 'config', 'diff.evil.textconv', script('textconv', 'cat "$1"\n'));
    git(repo, 'config', 'log.showSignature', 'true');
    git(repo, 'config', 'gpg.program', script('gpg'));
    fs.copyFileSync(script('hook'), path.join(repo, '.git', 'hooks', 'post-index-change'));
    fs.chmodSync(path.join(repo, '.git', 'hooks', 'post-index-change'), 0o755);
    // Same size, new mtime: status has to re-read the file through the clean filter to compare it.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(repo, 'a.txt'), later, later);
    fs.writeFileSync(path.join(repo, 'b.txt'), 'untracked\n');
  });
  afterEach(() => tmp.cleanup());

  it('is armed: plain git runs them', () => {
    git(repo, 'status', '--porcelain');
    expect(fs.readdirSync(markers).sort()).toEqual(expect.arrayContaining(['clean', 'fsmonitor']));
  });

  it('checkpoint and drift read the repository and run none of them', async () => {
    const { snapshot, fingerprint } = await takeGitSnapshot(repo, new Date());
    expect(snapshot).toMatchObject({ isRepo: true, error: null, branch: 'main', headSubject: 'first', untracked: ['b.txt'] });
    fs.writeFileSync(path.join(repo, 'a.txt'), 'two\n');
    fs.writeFileSync(path.join(repo, 'c.txt'), 'c\n');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'filter.evil.clean=cat', 'add', 'c.txt');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'filter.evil.clean=cat', 'commit', '-q', '-m', 'second');
    const drift = await computeGitDrift(repo, snapshot, fingerprint, new Date());
    expect(drift.error).toBeNull();
    expect(drift.commitsSince.map((c) => c.subject)).toEqual(['second']);
    expect(drift.filesChangedSince).toEqual(expect.arrayContaining(['a.txt', 'c.txt']));
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it('switches off only the repository’s own filter drivers, by name', async () => {
    expect(await filterDriverNames(repo)).toEqual(['evil']);
  });
});
