/**
 * Undoing what a native writer's commit did, newest step first: remove the files it created, the
 * index rows it inserted (by key), the index lines it appended (that exact line, once). A step whose
 * thing is already gone is done. Returns what could not be undone, with the reason.
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { UndoStep } from './native-writer.js';
import { removeCnIndexEntry } from './targets/continue-sessions-index.js';

function undoOne(step: UndoStep): void {
  switch (step.kind) {
    case 'file':
      fs.rmSync(step.path, { force: true });
      return;
    case 'empty-dir':
      try {
        fs.rmdirSync(step.path);
      } catch (err) {
        // Gone already, or the agent (or the user) put something of theirs in it: it stays.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      }
      return;
    case 'sqlite-row': {
      if (!fs.existsSync(step.db)) return;
      const conn = new Database(step.db, { timeout: 5000, fileMustExist: true });
      try {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(step.table) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(step.keyColumn)) throw new Error(`bad table or column name in an undo step`);
        conn.prepare(`DELETE FROM ${step.table} WHERE ${step.keyColumn} = ?`).run(step.key);
      } finally {
        conn.close();
      }
      return;
    }
    case 'jsonl-line': {
      if (!fs.existsSync(step.path)) return;
      const lines = fs.readFileSync(step.path, 'utf8').split('\n');
      const at = lines.lastIndexOf(step.line);
      if (at < 0) return;
      lines.splice(at, 1);
      writeFileAtomic(step.path, lines.join('\n'), 0o600);
      return;
    }
    case 'command': {
      const [bin, ...args] = step.argv;
      if (!bin) return;
      const r = spawnSync(bin, args, { cwd: step.cwd, encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0) throw new Error(`${step.argv.join(' ')} failed: ${(r.stderr || r.stdout || String(r.error ?? '')).trim().slice(0, 300)}`);
      return;
    }
    case 'cn-index-entry':
      removeCnIndexEntry(step.path, step.sessionId, step);
      return;
  }
}

export function runUndo(steps: UndoStep[]): { failed: { step: UndoStep; error: string }[] } {
  const failed: { step: UndoStep; error: string }[] = [];
  for (const step of [...steps].reverse()) {
    try {
      undoOne(step);
    } catch (err) {
      failed.push({ step, error: (err as Error).message });
    }
  }
  return { failed };
}
