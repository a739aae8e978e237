/**
 * Gemini CLI 0.61's project registry, done the way the CLI does it (ProjectRegistry in its bundle):
 * `projects.json` maps a project root to a slug; a new root takes the first free slug of its
 * basename (lowercase, non-alphanumerics → '-', then '-1', '-2', …), and `.project_root` markers in
 * `tmp/<slug>/` and `history/<slug>/` claim the slug. The CLI locks the registry with
 * proper-lockfile (a `projects.json.lock` directory); Baton takes the same lock to add an entry
 * and refuses while someone else holds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';

/** proper-lockfile's default staleness: an older lock belongs to a dead process. */
const LOCK_STALE_MS = 10_000;

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

export function readRegistry(geminiDir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(geminiDir, 'projects.json'), 'utf8'));
    const projects = typeof parsed === 'object' && parsed !== null ? (parsed as { projects?: unknown }).projects : null;
    if (typeof projects !== 'object' || projects === null) return {};
    return Object.fromEntries(Object.entries(projects).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function marker(geminiDir: string, base: 'tmp' | 'history', slug: string): string {
  return path.join(geminiDir, base, slug, '.project_root');
}

function markerOwner(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The slug Gemini uses (or would claim) for `root`, and whether the registry must learn it. */
export function resolveSlug(geminiDir: string, root: string): { slug: string; registered: boolean } {
  const projects = readRegistry(geminiDir);
  const known = projects[root];
  const owns = (slug: string) => (['tmp', 'history'] as const).every((b) => [null, root].includes(markerOwner(marker(geminiDir, b, slug))));
  if (known && owns(known)) return { slug: known, registered: true };
  // A slug folder whose marker names this root (the registry lost the entry).
  try {
    for (const name of fs.readdirSync(path.join(geminiDir, 'tmp'))) {
      if (markerOwner(marker(geminiDir, 'tmp', name)) === root) return { slug: name, registered: false };
    }
  } catch {
    /* no tmp yet */
  }
  const taken = new Set(Object.values(projects));
  const base = slugify(path.basename(root) || 'project');
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}-${n}`;
    if (!taken.has(candidate) && owns(candidate)) return { slug: candidate, registered: false };
  }
}

export function registryLocked(geminiDir: string): boolean {
  try {
    return Date.now() - fs.statSync(path.join(geminiDir, 'projects.json.lock')).mtimeMs < LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Adds `root → slug` to projects.json under the CLI's own lock and writes the ownership markers it
 * would write. Returns what was created (for the result), throws when the registry is locked or
 * the slug turned out to be someone else's.
 */
export function registerProject(geminiDir: string, root: string, slug: string): string[] {
  const lock = path.join(geminiDir, 'projects.json.lock');
  const created: string[] = [];
  try {
    fs.mkdirSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`Gemini CLI's project registry is locked (${lock}): a running gemini is registering a project`, { cause: err });
    throw err;
  }
  try {
    const projects = readRegistry(geminiDir);
    const current = projects[root];
    if (current && current !== slug) throw new Error(`Gemini CLI registered ${root} as "${current}" meanwhile; try again`);
    for (const base of ['tmp', 'history'] as const) {
      const file = marker(geminiDir, base, slug);
      const owner = markerOwner(file);
      if (owner !== null && owner !== root) throw new Error(`Gemini CLI project folder "${slug}" belongs to ${owner}`);
      if (owner === null) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, root, { flag: 'wx' });
        created.push(file);
      }
    }
    if (!current) {
      writeFileAtomic(path.join(geminiDir, 'projects.json'), JSON.stringify({ projects: { ...projects, [root]: slug } }, null, 2));
      created.push(`${path.join(geminiDir, 'projects.json')} (${root} → ${slug})`);
    }
    return created;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
