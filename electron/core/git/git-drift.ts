/**
 * What changed in a session's repository since a checkpoint's snapshot: new commits, a branch
 * switch, files changed (committed or in the work tree). Reported, never thrown: a cwd that is
 * gone or no longer a repository is a plain `error` string the restore packet shows first.
 */
import type { GitDrift, GitSnapshot } from '../../../shared/api-types.js';
import { firstLine, hashWorkTree, openRepo, takeGitSnapshot, type WorkTreeFingerprint } from './git-snapshot.js';

const MAX_COMMITS = 200;

export async function computeGitDrift(
  cwd: string | null,
  before: GitSnapshot | null,
  fingerprint: WorkTreeFingerprint,
  now: Date,
): Promise<GitDrift> {
  const { snapshot: current } = await takeGitSnapshot(cwd, now);
  const drift: GitDrift = {
    error: null,
    branchSwitched: null,
    commitsSince: [],
    filesChangedSince: [],
    workTreeChanged: false,
    now: current,
  };
  if (current.error) {
    drift.error = current.error;
    return drift;
  }
  if (!before) {
    drift.error = 'no git snapshot at the checkpoint to compare with';
    return drift;
  }
  if (!before.isRepo || before.error) {
    drift.error = `no git state was recorded at the checkpoint (${before.error ?? 'not a repository'})`;
    return drift;
  }
  if (before.branch !== current.branch) drift.branchSwitched = { from: before.branch, to: current.branch };

  const repo = await openRepo(cwd);
  if ('error' in repo) {
    drift.error = repo.error;
    return drift;
  }
  const { git, root } = repo;
  const changed = new Set<string>();

  if (before.head && current.head && before.head !== current.head) {
    try {
      await git.raw(['cat-file', '-e', `${before.head}^{commit}`]);
      const log = await git.raw(['log', `--max-count=${MAX_COMMITS}`, '--format=%H%x00%s', `${before.head}..${current.head}`]);
      drift.commitsSince = log
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [hash = '', subject = ''] = line.split('\0');
          return { hash, subject };
        });
      const names = await git.raw(['diff', '--no-ext-diff', '--no-textconv', '--name-only', before.head, current.head]);
      for (const name of names.split('\n')) if (name) changed.add(name);
    } catch (err) {
      drift.error = `checkpoint commit ${before.head.slice(0, 12)} is no longer in the repository (${firstLine(err)})`;
    }
  } else if (!before.head && current.head) {
    const log = await git.raw(['log', `--max-count=${MAX_COMMITS}`, '--format=%H%x00%s', current.head]);
    drift.commitsSince = log
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [hash = '', subject = ''] = line.split('\0');
        return { hash, subject };
      });
  }

  // Work tree: a file counts as changed when its content differs from what the checkpoint saw.
  // Files clean at the checkpoint had HEAD's content, so being dirty now means changed (unless
  // the commits above already explain it); dirty files are compared by blob hash.
  const dirtyBefore = new Set([...before.staged, ...before.unstaged, ...before.untracked]);
  const dirtyNow = new Set([...current.staged, ...current.unstaged, ...current.untracked]);
  const candidates = [...new Set([...dirtyBefore, ...dirtyNow])].sort();
  const hashesNow = await hashWorkTree(git, root, candidates);
  let workTreeChanged = false;
  for (const file of candidates) {
    const wasDirty = dirtyBefore.has(file);
    const isDirty = dirtyNow.has(file);
    if (wasDirty && file in fingerprint) {
      if (fingerprint[file] !== hashesNow[file]) {
        changed.add(file);
        workTreeChanged = true;
      } else if (!isDirty) {
        // Same content, now clean: it was committed as it was. The commit list covers it.
        workTreeChanged = true;
      }
    } else if (wasDirty !== isDirty) {
      changed.add(file);
      workTreeChanged = true;
    }
  }
  if (!sameList(before.staged, current.staged) || !sameList(before.unstaged, current.unstaged) || !sameList(before.untracked, current.untracked)) {
    workTreeChanged = true;
  }
  drift.workTreeChanged = workTreeChanged;
  drift.filesChangedSince = [...changed].sort();
  return drift;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** One-paragraph plain-text account of a drift, shown before any brief. */
export function describeDrift(drift: GitDrift | null): string {
  if (!drift) return 'No checkpoint: git drift not computed.';
  if (drift.error) return `Git: ${drift.error}.`;
  const parts: string[] = [];
  if (drift.branchSwitched) parts.push(`branch switched from ${drift.branchSwitched.from ?? '(detached)'} to ${drift.branchSwitched.to ?? '(detached)'}`);
  if (drift.commitsSince.length) parts.push(`${drift.commitsSince.length} commit${drift.commitsSince.length === 1 ? '' : 's'} since the checkpoint`);
  if (drift.filesChangedSince.length) parts.push(`${drift.filesChangedSince.length} file${drift.filesChangedSince.length === 1 ? '' : 's'} changed since`);
  if (drift.workTreeChanged && !drift.filesChangedSince.length) parts.push('work-tree status changed');
  return parts.length ? `Git drift: ${parts.join('; ')}.` : 'Git: no drift since the checkpoint.';
}
