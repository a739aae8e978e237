/**
 * The shared, read-only material next to the checkout (`../shared`: fixture stores, mock LLM,
 * references) must come out of a test run exactly as it went in: tests copy it first. The suites'
 * global setups take a fingerprint before and fail the run when any file's content, mode, the set
 * of entries or a symlink's target changed (a test writing into the fixtures would make every
 * later test, and every later run, read something else).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `../shared` beside the checkout, or the parent of BATON_FIXTURES when that points elsewhere. */
export function sharedDir(): string {
  const fixtures = process.env.BATON_FIXTURES;
  return fixtures ? path.dirname(path.resolve(fixtures)) : path.resolve(repoRoot, '..', 'shared');
}

/** Relative path → what it is: `dir <mode>`, `file <mode> <sha256>` or `link <target>`. */
export type Fingerprint = Map<string, string>;

export function fingerprint(dir: string): Fingerprint {
  const out: Fingerprint = new Map();
  const walk = (abs: string, rel: string) => {
    const st = fs.lstatSync(abs);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out.set(rel, `link ${fs.readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      out.set(rel, `dir ${mode}`);
      for (const name of fs.readdirSync(abs).sort()) walk(path.join(abs, name), rel ? `${rel}/${name}` : name);
    } else out.set(rel, `file ${mode} ${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}`);
  };
  // The root itself may be a link (a worktree's ../shared): walk what it points to. Links inside
  // are recorded as links, never followed.
  walk(fs.realpathSync(dir), '');
  return out;
}

/** What differs, one line per entry: `changed a/b: file 444 … → file 644 …`, `added x`, `removed y`. */
export function fingerprintChanges(before: Fingerprint, after: Fingerprint): string[] {
  const changes: string[] = [];
  for (const [rel, was] of before) {
    const now = after.get(rel);
    if (now === undefined) changes.push(`removed ${rel || '.'}`);
    else if (now !== was) changes.push(`changed ${rel || '.'}: ${was} → ${now}`);
  }
  for (const rel of after.keys()) if (!before.has(rel)) changes.push(`added ${rel}`);
  return changes;
}

/**
 * For a global setup: fingerprints the shared dir now and returns the check to run at teardown,
 * which throws (failing the run) when a test changed it. A missing shared dir is left to the tests
 * that need it, which say where they looked.
 */
export function guardSharedDir(dir = sharedDir()): () => void {
  if (!fs.existsSync(dir)) return () => {};
  const before = fingerprint(dir);
  return () => {
    const changes = fingerprintChanges(before, fingerprint(dir));
    if (changes.length > 0) {
      throw new Error(`A test changed the shared read-only material in ${dir} (tests must copy it first):\n  ${changes.slice(0, 20).join('\n  ')}${changes.length > 20 ? `\n  … and ${changes.length - 20} more` : ''}`);
    }
  };
}
