/**
 * Which handoffs a new session may receive: the handoff's folder, any folder below it, or any
 * folder of the same git work tree. Paths are compared after resolving symlinks (macOS /tmp is
 * /private/tmp), and the work tree is found by walking up to the nearest `.git` entry — a
 * directory in a main checkout, a file in a linked worktree — so no git process is started.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The directory with symlinks resolved; the path itself (normalised) when it does not exist. */
export function realDir(dir: string): string {
  const absolute = path.resolve(dir);
  try {
    return fs.realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

/** The root of the git work tree holding `dir` (the folder with the `.git` entry), or null. */
export function worktreeRoot(dir: string): string | null {
  let current = realDir(dir);
  for (;;) {
    try {
      fs.lstatSync(path.join(current, '.git'));
      return current;
    } catch {
      // not here: go up
    }
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

export function isSameOrBelow(dir: string, ancestor: string): boolean {
  if (dir === ancestor) return true;
  const rel = path.relative(ancestor, dir);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export interface ProjectPlace {
  projectDir: string;
  worktreeRoot: string | null;
}

/** How a session's cwd relates to a handoff's folder; null when it does not match. */
export function matchProject(place: ProjectPlace, cwd: string, cwdWorktree: () => string | null): 'folder' | 'subfolder' | 'worktree' | null {
  const here = realDir(cwd);
  if (here === place.projectDir) return 'folder';
  if (isSameOrBelow(here, place.projectDir)) return 'subfolder';
  if (place.worktreeRoot && cwdWorktree() === place.worktreeRoot) return 'worktree';
  return null;
}
