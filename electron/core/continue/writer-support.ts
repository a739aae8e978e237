/**
 * What every native writer shares: staging a file, moving a staged file into the real store
 * atomically (copy beside the final name, fsync, rename; never over an existing file), finding a
 * target's CLI on PATH and asking it its version.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Environment } from '../paths.js';
import type { StagedFile, UndoStep } from './native-writer.js';

export function stageFile(stagingRoot: string, relative: string, finalPath: string, data: string): StagedFile {
  const stagedPath = path.join(stagingRoot, relative);
  writeFileAtomic(stagedPath, data, 0o600);
  return { stagedPath, finalPath };
}

/**
 * Puts staged files in place. A final file that already holds exactly the staged bytes (the same
 * source state continued before) is left as it is; one that holds anything else is refused, so a
 * session is never edited. Returns the undo steps of the files it created.
 */
export function placeFiles(files: StagedFile[]): UndoStep[] {
  for (const f of files) {
    if (fs.existsSync(f.finalPath) && !fs.readFileSync(f.finalPath).equals(fs.readFileSync(f.stagedPath))) {
      throw new Error(`${f.finalPath} already exists with other content; Baton never edits an existing session.`);
    }
  }
  const undo: UndoStep[] = [];
  try {
    for (const f of files) {
      if (fs.existsSync(f.finalPath)) continue;
      // Folders made for the file go before it, outermost first: undo runs newest first, so they go after it.
      for (const dir of missingFolders(path.dirname(f.finalPath))) undo.push({ kind: 'empty-dir', path: dir });
      writeFileAtomic(f.finalPath, fs.readFileSync(f.stagedPath), 0o600);
      undo.push({ kind: 'file', path: f.finalPath });
    }
  } catch (err) {
    for (const step of undo.reverse()) {
      if (step.kind === 'file') fs.rmSync(step.path, { force: true });
      else if (step.kind === 'empty-dir') {
        try {
          fs.rmdirSync(step.path);
        } catch {
          // not empty (or gone): left as it is
        }
      }
    }
    throw err;
  }
  return undo;
}

/** The folders at and above `dir` that do not exist yet, outermost first. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) {
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return missing;
}

/** The first `name` executable on the environment's PATH, or null. */
export function findOnPath(name: string, environment: Environment): string | null {
  const sep = environment.platform === 'win32' ? ';' : ':';
  const exts = environment.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];
  for (const dir of (environment.env.PATH ?? '').split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

/** `<bin> --version`'s first x.y.z, or null when it cannot tell. */
export function cliVersion(bin: string, environment: Environment): string | null {
  const r = spawnSync(bin, ['--version'], { env: environment.env, encoding: 'utf8', timeout: 20_000 });
  return /(\d+\.\d+\.\d+)/.exec(`${r.stdout ?? ''} ${r.stderr ?? ''}`)?.[1] ?? null;
}

/** -1, 0, 1 for semver-ish x.y.z strings (numeric parts only). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
