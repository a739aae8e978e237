/**
 * The git state of a session's working directory at one moment: what a checkpoint records and what
 * drift is measured against. Never throws for an unusable cwd (missing, not a repo, git absent):
 * the reason goes in `error`, because a handoff must still work for a plain folder.
 */
import fs from 'node:fs';
import type { SimpleGit, StatusResult } from 'simple-git';
import type { GitSnapshot } from '../../../shared/api-types.js';
import { safeGit } from './safe-git.js';

/**
 * Content hash (git blob id) of every path that was dirty at snapshot time, or null when the path
 * did not exist in the work tree. Kept beside the snapshot so drift can tell whether a file that
 * was already modified at the checkpoint changed again afterwards.
 */
export type WorkTreeFingerprint = Record<string, string | null>;

export interface SnapshotWithFingerprint {
  snapshot: GitSnapshot;
  fingerprint: WorkTreeFingerprint;
}

export function emptySnapshot(error: string, takenAt: Date): GitSnapshot {
  return {
    isRepo: false,
    error,
    branch: null,
    head: null,
    headSubject: null,
    staged: [],
    unstaged: [],
    untracked: [],
    ahead: 0,
    behind: 0,
    upstream: null,
    takenAt: takenAt.toISOString(),
  };
}

/** Opens git on `cwd`, or explains why it cannot (returned, not thrown). */
export async function openRepo(cwd: string | null): Promise<{ git: SimpleGit; root: string } | { error: string }> {
  if (!cwd) return { error: 'session has no working directory' };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    return { error: `working directory no longer exists: ${cwd}` };
  }
  if (!stat.isDirectory()) return { error: `working directory is not a directory: ${cwd}` };
  try {
    const git = await safeGit(cwd);
    const isRepo = await git.checkIsRepo();
    if (!isRepo) return { error: `not a git repository: ${cwd}` };
    const root = (await git.revparse(['--show-toplevel'])).trim();
    return { git, root };
  } catch (err) {
    return { error: `git unavailable in ${cwd}: ${firstLine(err)}` };
  }
}

export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n').find((l) => l.trim())?.trim() ?? 'unknown error';
}

/** Files by work-tree state; paths are relative to the repository root, sorted. */
export function classifyStatus(status: StatusResult): { staged: string[]; unstaged: string[]; untracked: string[] } {
  const staged = new Set<string>();
  const unstaged = new Set<string>();
  const untracked = new Set<string>();
  for (const file of status.files) {
    if (file.index === '?' && file.working_dir === '?') {
      untracked.add(file.path);
      continue;
    }
    if (file.index && file.index !== ' ' && file.index !== '?') staged.add(file.path);
    if (file.working_dir && file.working_dir !== ' ' && file.working_dir !== '?') unstaged.add(file.path);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { staged: sorted(staged), unstaged: sorted(unstaged), untracked: sorted(untracked) };
}

/** HEAD commit and subject; nulls on a repository without commits. */
export async function readHead(git: SimpleGit): Promise<{ head: string | null; subject: string | null }> {
  try {
    const out = await git.raw(['log', '-1', '--format=%H%x00%s', 'HEAD']);
    const [head, subject] = out.trim().split('\0');
    return { head: head || null, subject: subject ?? null };
  } catch {
    return { head: null, subject: null };
  }
}

/** Blob ids of the given work-tree paths (relative to `root`), null for paths that are gone. */
export async function hashWorkTree(git: SimpleGit, root: string, paths: string[]): Promise<WorkTreeFingerprint> {
  const result: WorkTreeFingerprint = {};
  const present = paths.filter((p) => {
    const abs = `${root}/${p}`;
    try {
      return fs.statSync(abs).isFile();
    } catch {
      return false;
    }
  });
  for (const p of paths) result[p] = null;
  if (present.length > 0) {
    // --no-filters: a clean filter is a program the repository names (see safe-git.ts).
    const out = await git.raw(['hash-object', '--no-filters', '--', ...present]);
    const hashes = out.trim().split('\n');
    present.forEach((p, i) => {
      result[p] = hashes[i] ?? null;
    });
  }
  return result;
}

export async function takeGitSnapshot(cwd: string | null, now: Date): Promise<SnapshotWithFingerprint> {
  const repo = await openRepo(cwd);
  if ('error' in repo) return { snapshot: emptySnapshot(repo.error, now), fingerprint: {} };
  const { git, root } = repo;
  try {
    const status = await git.status(['--untracked-files=all']);
    const { staged, unstaged, untracked } = classifyStatus(status);
    const { head, subject } = await readHead(git);
    const dirty = [...new Set([...staged, ...unstaged, ...untracked])].sort();
    const fingerprint = await hashWorkTree(git, root, dirty);
    const snapshot: GitSnapshot = {
      isRepo: true,
      error: null,
      branch: status.detached ? null : status.current || null,
      head,
      headSubject: subject,
      staged,
      unstaged,
      untracked,
      ahead: status.ahead,
      behind: status.behind,
      upstream: status.tracking || null,
      takenAt: now.toISOString(),
    };
    return { snapshot, fingerprint };
  } catch (err) {
    return { snapshot: { ...emptySnapshot(`git status failed: ${firstLine(err)}`, now), isRepo: true }, fingerprint: {} };
  }
}
