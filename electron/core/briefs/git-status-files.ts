/**
 * Changed files as the session's own `git status` / `git diff --stat|--name-only|--name-status`
 * printed them: what the work tree held when the agent last looked, whichever way the files were
 * changed (file tools, shell, scripts). Only the output's file lines are read; anything else in it
 * yields nothing.
 */
import type { FileEffect } from './tool-input.js';

export type GitListing = 'status' | 'status-short' | 'diff-stat' | 'diff-names' | 'diff-name-status';

/** Which listing a shell command prints, when it is one (`git status`, `git -C x diff --stat`…); else null. */
export function gitListing(command: string): GitListing | null {
  // One git command, optionally after a `cd`; a pipeline or a chain of other commands is not read.
  const m = /^(?:cd\s+\S+\s*&&\s*)?git\s+(?:-C\s+\S+\s+|-c\s+\S+\s+|--no-pager\s+)*(status|diff)\b([^|;&<>]*)$/.exec(command.trim());
  if (!m) return null;
  const args = m[2]!;
  if (m[1] === 'status') return /(?:^|\s)(?:-s|--short|--porcelain(?:=v1)?|-sb|-bs)\b/.test(args) ? 'status-short' : /--porcelain=v2/.test(args) ? null : 'status';
  if (/--stat\b/.test(args)) return 'diff-stat';
  if (/--name-only\b/.test(args)) return 'diff-names';
  if (/--name-status\b/.test(args)) return 'diff-name-status';
  return null;
}

const LONG_STATES: Record<string, FileEffect['action']> = {
  modified: 'modified',
  'new file': 'created',
  deleted: 'deleted',
  'typechange': 'modified',
  'both modified': 'modified',
  'both added': 'created',
};

function shortAction(code: string): FileEffect['action'] | null {
  if (code === '??') return 'created';
  if (code.includes('D')) return 'deleted';
  if (code.includes('A')) return 'created';
  if (/[MTUR C]/.test(code)) return 'modified';
  return null;
}

/** Paths git quotes when they hold unusual characters ("a b.txt"). */
function unquote(p: string): string {
  const t = p.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t;
}

/** Files the listing names, with what happened to each; a rename gives the old path as moved and the new one as created. */
export function gitListingFiles(listing: GitListing, output: string): FileEffect[] {
  const out: FileEffect[] = [];
  const rename = (from: string, to: string) => out.push({ path: unquote(from), action: 'moved' }, { path: unquote(to), action: 'created' });
  const lines = output.split('\n');
  if (listing === 'status') {
    let untracked = false;
    for (const raw of lines) {
      const line = raw.replace(/\r$/, '');
      if (/^Untracked files:/.test(line)) untracked = true;
      else if (/^\S/.test(line)) untracked = false;
      const m = /^\t(?:([a-z ]+):\s+)?(.+)$/.exec(line);
      if (!m) continue;
      if (m[1] === 'renamed') {
        const [from, to] = m[2]!.split(' -> ');
        if (from && to) rename(from, to);
      } else if (m[1] && LONG_STATES[m[1]]) out.push({ path: unquote(m[2]!.replace(/\s+\((?:new commits|modified content|untracked content)[^)]*\)$/, '')), action: LONG_STATES[m[1]]! });
      else if (!m[1] && untracked && !m[2]!.endsWith('/')) out.push({ path: unquote(m[2]!), action: 'created' });
    }
  } else if (listing === 'status-short') {
    for (const line of lines) {
      const m = /^([ MADRCUT?!]{2}) (.+)$/.exec(line.replace(/\r$/, ''));
      if (!m || m[1] === '!!') continue;
      if (m[1]!.includes('R') && m[2]!.includes(' -> ')) {
        const [from, to] = m[2]!.split(' -> ');
        rename(from!, to!);
        continue;
      }
      const action = shortAction(m[1]!);
      if (action && !m[2]!.endsWith('/')) out.push({ path: unquote(m[2]!), action });
    }
  } else if (listing === 'diff-stat') {
    for (const line of lines) {
      const m = /^ (\S.*?)\s+\|\s+(?:\d+|Bin)/.exec(line);
      // "…/long/path" is abbreviated by git: not a path that can be named.
      if (!m || m[1]!.startsWith('...')) continue;
      const r = /^(.*)\{(.*) => (.*)\}(.*)$/.exec(m[1]!) ?? /^()(.*) => (.*)()$/.exec(m[1]!);
      if (r) rename(`${r[1]}${r[2]}${r[4]}`.replace(/\/\//g, '/'), `${r[1]}${r[3]}${r[4]}`.replace(/\/\//g, '/'));
      else out.push({ path: unquote(m[1]!), action: 'modified' });
    }
  } else if (listing === 'diff-names') {
    for (const line of lines) if (line.trim() && !/\s{2,}|^warning:/.test(line)) out.push({ path: unquote(line), action: 'modified' });
  } else {
    for (const line of lines) {
      const m = /^([ACDMRTU])\d*\t([^\t]+)(?:\t([^\t]+))?$/.exec(line.replace(/\r$/, ''));
      if (!m) continue;
      if (m[3] && (m[1] === 'R' || m[1] === 'C')) {
        if (m[1] === 'R') rename(m[2]!, m[3]);
        else out.push({ path: unquote(m[3]), action: 'created' });
      } else out.push({ path: unquote(m[2]!), action: m[1] === 'D' ? 'deleted' : m[1] === 'A' ? 'created' : 'modified' });
    }
  }
  return out;
}
