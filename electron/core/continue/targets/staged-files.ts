/**
 * Staging and committing whole new files for the JSONL targets. A file is written under the staging
 * root (laid out like the store, for read-back), then renamed into the store only where nothing is:
 * the same bytes already there are the same session (idempotent), different bytes are someone
 * else's session and are never touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { StagedFile, UndoStep } from '../native-writer.js';

export function stageFile(stagedPath: string, finalPath: string, content: string): StagedFile {
  writeFileAtomic(stagedPath, content, 0o600);
  return { stagedPath, finalPath };
}

/** Outcome of putting one staged file in place: `placed` false when the same bytes were already there. */
export interface PlacedFile {
  placed: boolean;
  undo: UndoStep;
}

/**
 * Moves `file` into the store. A copy (not a rename) when the staging root is on another device.
 * Throws when the final path holds other content: Baton never edits an existing session.
 */
export function placeStagedFile(file: StagedFile): PlacedFile {
  const content = fs.readFileSync(file.stagedPath);
  let existing: Buffer | null = null;
  try {
    existing = fs.readFileSync(file.finalPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (existing) {
    if (existing.equals(content)) return { placed: false, undo: { kind: 'file', path: file.finalPath } };
    throw new Error(`${file.finalPath} already exists with other content; Baton does not edit an existing session`);
  }
  fs.mkdirSync(path.dirname(file.finalPath), { recursive: true });
  try {
    // link() fails if the name appeared meanwhile: no check-then-write race with the agent.
    fs.linkSync(file.stagedPath, file.finalPath);
    fs.rmSync(file.stagedPath, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return placeStagedFile(file);
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    const tmp = path.join(path.dirname(file.finalPath), `.${path.basename(file.finalPath)}.baton-${process.pid}.tmp`);
    fs.writeFileSync(tmp, content, { mode: 0o600 });
    try {
      fs.linkSync(tmp, file.finalPath);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  return { placed: true, undo: { kind: 'file', path: file.finalPath } };
}

/** Places every staged file; on a failure removes the ones this call placed and rethrows. */
/** The undo steps name every file of the session, also one that was already there (an earlier identical continue). */
export function placeAll(files: readonly StagedFile[]): { undo: UndoStep[]; alreadyThere: number } {
  const undo: UndoStep[] = [];
  const placedNow: string[] = [];
  let alreadyThere = 0;
  try {
    for (const f of files) {
      const r = placeStagedFile(f);
      undo.push(r.undo);
      if (r.placed) placedNow.push(f.finalPath);
      else alreadyThere++;
    }
  } catch (err) {
    placedNow.forEach((p) => fs.rmSync(p, { force: true }));
    throw err;
  }
  return { undo, alreadyThere };
}
