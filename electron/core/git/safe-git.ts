/**
 * git for a folder Baton does not trust: a session's cwd is whatever repository an agent worked in,
 * and its `.git/config` can name programs git runs by itself (core.fsmonitor on every status, hooks
 * such as post-index-change, clean filters when status re-reads a file, textconv and external diff
 * drivers, gpg for log.showSignature, a pager). Baton only reads: every such key is overridden on
 * git's command line, which outranks the repository's config, and status takes no optional locks
 * (no index write, so no hook, and no lock in the way of the agent's own git).
 *
 * Filter drivers have free names (`filter.<name>.clean`), so the config is read first (reading
 * config runs nothing) and every driver the repository's own config (local or worktree scope,
 * includes followed) names is switched off by name. The user's own drivers (git-lfs in
 * ~/.gitconfig) keep working: they are the user's programs, not the repository's.
 */
import os from 'node:os';
import type { SimpleGit } from 'simple-git';

// Loaded at the first git call: a git snapshot needs simple-git, a `baton list` or `search` never.
const simpleGitModule = () => import('simple-git');

/** Keys that make git run a program, with values that run none. */
const NEUTRAL_CONFIG = [
  'core.fsmonitor=false',
  `core.hooksPath=${os.devNull}`,
  'core.pager=cat',
  'log.showSignature=false',
  'diff.external=',
  // Nothing Baton runs talks to a remote; if anything ever did, no transport may start a program.
  'protocol.allow=never',
] as const;

/** What simple-git must be told to let us set: its guard blocks these keys because they can run programs. */
const UNSAFE_ALLOWED = {
  allowUnsafeFsMonitor: true,
  allowUnsafeHooksPath: true,
  allowUnsafePager: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeFilter: true,
  allowUnsafeProtocolOverride: true,
} as const;

const OPTIONS = { maxConcurrentProcesses: 4, timeout: { block: 15_000 } } as const;

/** Names of the filter drivers the repository's own config defines or changes (`filter.<name>.<key>`). */
export async function filterDriverNames(cwd: string): Promise<string[]> {
  const { simpleGit } = await simpleGitModule();
  const git = simpleGit({ baseDir: cwd, ...OPTIONS });
  let out: string;
  try {
    out = await git.raw(['config', '--show-scope', '--null', '--name-only', '--get-regexp', '^filter\\.']);
  } catch {
    return []; // exit status 1: none defined
  }
  // scope NUL key NUL, repeated
  const fields = out.split('\0');
  const names = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const m = /^filter\.(.+)\.[^.]+$/s.exec(fields[i + 1]!);
    if (m && (fields[i] === 'local' || fields[i] === 'worktree')) names.add(m[1]!);
  }
  return [...names];
}

/** `-c` settings that switch off every named filter driver (an empty command is no filter). */
export function disabledFilters(names: string[]): string[] {
  return names.flatMap((n) => [`filter.${n}.clean=`, `filter.${n}.smudge=`, `filter.${n}.process=`, `filter.${n}.required=false`]);
}

/** What git needs from the environment to find itself, the user's config and a temp dir; nothing that names a program (EDITOR, PAGER, GIT_*). */
const ENV_KEPT = ['PATH', 'Path', 'HOME', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH', 'XDG_CONFIG_HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'SystemRoot', 'TMPDIR', 'TEMP', 'TMP'];

function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = { GIT_OPTIONAL_LOCKS: '0' };
  for (const key of ENV_KEPT) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  return env;
}

/** simple-git on `cwd` that cannot be made to run anything by the repository's configuration. */
export async function safeGit(cwd: string): Promise<SimpleGit> {
  const config = [...NEUTRAL_CONFIG, ...disabledFilters(await filterDriverNames(cwd))];
  const { simpleGit } = await simpleGitModule();
  return simpleGit({ baseDir: cwd, ...OPTIONS, config, unsafe: UNSAFE_ALLOWED, allowEnvironment: ['GIT_OPTIONAL_LOCKS'] }).env(gitEnvironment());
}
