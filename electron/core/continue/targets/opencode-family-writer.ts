/**
 * The writer OpenCode and its forks (Kilo Code) share: they kept OpenCode's importer, so Baton
 * stages an `export`-shaped document (and the JSON storage tree Baton's reader reads back), then
 * `<bin> import <file>` runs in the project folder, which binds the session to that folder's project
 * and inserts its rows. Undo is the agent's own `<bin> session delete <id>`. What differs per agent
 * (binary, database, config folder, primary agent, resume flag, import's reply) is the spec.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AgentId } from '../../../../shared/model.js';
import type { CommitResult, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { openCodeDefaultModel, openCodeDocument, writeStorageTree } from './opencode-export.js';
import { findOnPath } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

export interface OpenCodeFamilySpec {
  agent: AgentId;
  /** The CLI on PATH (also the first word of undo and resume). */
  bin: string;
  label: string;
  testedVersion: string;
  dbPath(env: WriterEnv): string;
  /** The folder `check` requires to exist (the data dir holding the database). */
  storeDir(env: WriterEnv): string | undefined;
  /** The config folder's name under $XDG_CONFIG_HOME (or ~/.config). */
  configDirName: string;
  /** Config file names, the last-wins one first (OpenCode's own order when absent). */
  configNames?: readonly string[];
  /** The model's provider when the user's config names none. */
  fallbackProvider: string;
  /** The primary agent the messages name (OpenCode's `build` when absent). */
  primaryAgent?: string;
  resume(id: string): string[];
  /** Whether `<bin> import`'s output confirms the session was imported. */
  imported(out: string, id: string): boolean;
}

/** True when another connection holds the database's write lock (a running agent mid-write). */
export function openCodeDbLocked(dbPath: string): boolean {
  const db = new Database(dbPath, { fileMustExist: true, timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (/SQLITE_BUSY|database is locked/i.test(String((err as Error).message) + String((err as { code?: string }).code))) return true;
    throw err;
  } finally {
    db.close();
  }
}

export function openCodeHasSession(dbPath: string, id: string): boolean {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT 1 FROM session WHERE id = ?').get(id) !== undefined;
  } finally {
    db.close();
  }
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { cwd, env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code?: unknown }).code) : 1) : 0;
      resolve({ code, out: `${stdout}\n${stderr}` });
    });
  });
}

export function openCodeFamilyWriter(spec: OpenCodeFamilySpec): NativeWriter {
  const { bin, label } = spec;
  const configDir = (env: WriterEnv): string => {
    const e = env.environment.env;
    return path.join(e.XDG_CONFIG_HOME || path.join(env.environment.home, '.config'), spec.configDirName);
  };
  return {
    agent: spec.agent,
    testedVersion: spec.testedVersion,

    // The agent resumes with the user's configured model; 128k is what the common ones offer at least.
    contextWindow: () => 128_000,

    async check(env: WriterEnv): Promise<WriterCheck> {
      const found = installedWithStore(env, bin, label, spec.storeDir(env));
      if (!found.ok) return found;
      const db = spec.dbPath(env);
      if (!fs.existsSync(db)) return { ok: false, reason: 'store_missing', message: `${label}'s database ${db} does not exist: run \`${bin}\` once first` };
      if (openCodeDbLocked(db)) return { ok: false, reason: 'locked', message: `${label}'s database ${db} is locked by a running ${bin}` };
      return found;
    },

    async stage(plan, env, stagingRoot): Promise<StagedSession> {
      const model = openCodeDefaultModel(configDir(env), spec.configNames) ?? { providerID: spec.fallbackProvider, modelID: 'continued' };
      const doc = openCodeDocument(plan, model, spec.testedVersion, spec.primaryAgent);
      const root = path.join(stagingRoot, spec.agent);
      const documentPath = path.join(root, 'import', `${doc.info.id}.json`);
      writeFileAtomic(documentPath, JSON.stringify(doc, null, 2), 0o600);
      writeStorageTree(path.join(root, 'data'), doc);
      return { nativeId: doc.info.id, files: [], readBackRoots: [path.join(root, 'data')], extra: { documentPath } };
    },

    async commit(staged, plan, env): Promise<CommitResult> {
      const id = staged.nativeId;
      const undo = [{ kind: 'command' as const, argv: [bin, 'session', 'delete', id], cwd: plan.cwd }];
      const resume = spec.resume(id);
      const db = spec.dbPath(env);
      // Already imported (the same source state continued before): importing again would upsert the
      // session over whatever the user did in it since.
      if (fs.existsSync(db) && openCodeHasSession(db, id)) return { nativeId: id, resume, undo, warnings: [] };
      const binPath = findOnPath(bin, env.environment);
      if (!binPath) throw new Error(`${label} is not installed: no \`${bin}\` on PATH`);
      const { code, out } = await run(binPath, ['import', String(staged.extra?.documentPath)], plan.cwd, env.environment.env);
      if (code !== 0 || !spec.imported(out, id)) throw new Error(`${bin} import failed (exit ${code}): ${out.trim().slice(0, 500)}`);
      return { nativeId: id, resume, undo, warnings: [] };
    },
  };
}
