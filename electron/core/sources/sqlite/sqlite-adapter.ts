/**
 * The one SQLite source adapter skeleton (OpenCode, Hermes): resolved roots, read options (busy
 * timeout, retries, batch size), the status tracker, and the rule that a unit whose read throws is
 * reported unreadable (and reads again next time) instead of failing the pass. An agent's file
 * gives only what is its own: which units its roots hold and how one is read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId, Diagnostic } from '../../../../shared/model.js';
import { MAX_BATCH_MESSAGES } from '../session-batches.js';
import { SourceStatusTracker } from '../source-status.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { SqliteReadError, databaseBytes, withReadonlyDb, type ReadonlyDb } from './sqlite-readonly.js';

export interface SqliteAdapterOptions {
  busyTimeoutMs?: number;
  retries?: number;
  maxBatchMessages?: number;
}

/** What the skeleton hands the agent's reader. */
export interface SqliteStore {
  roots: readonly string[];
  tracker: SourceStatusTracker;
  /** Messages per batch. */
  limit: number;
  /** Runs `fn` on the database opened read-only, with the adapter's busy timeout and retries. */
  withDb<T>(file: string, fn: (db: ReadonlyDb) => T): Promise<T>;
  /** A diagnostic for the status and for the read that met it. */
  report(ctx: ReadContext, d: Omit<Diagnostic, 'at'>): void;
}

export interface SqliteAgent {
  listUnits(): Promise<SourceUnit[]>;
  /** Reads one unit; a throw marks the unit unreadable until a later read succeeds. */
  readUnit(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch>;
}

export function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

/** A database file as a unit: its size with its WAL, changed when either file was written. */
export function databaseUnit(file: string): SourceUnit {
  const db = statOrNull(file);
  const wal = statOrNull(`${file}-wal`);
  return { key: file, path: file, size: databaseBytes(file), mtimeMs: Math.max(db?.mtimeMs ?? 0, wal?.mtimeMs ?? 0) };
}

export function createSqliteAdapter(agent: AgentId, roots: string[], options: SqliteAdapterOptions, describe: (store: SqliteStore) => SqliteAgent): SourceAdapter {
  const rootList = roots.map((r) => path.resolve(r));
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const retryOptions = options.retries === undefined ? {} : { retries: options.retries };
  const tracker = new SourceStatusTracker(agent, () => rootList);
  const own = describe({
    roots: rootList,
    tracker,
    limit: options.maxBatchMessages ?? MAX_BATCH_MESSAGES,
    withDb: (file, fn) => withReadonlyDb(file, fn, busyTimeoutMs, retryOptions),
    report: (ctx, d) => tracker.diagnostic(d, ctx),
  });

  async function* read(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    try {
      yield* own.readUnit(unit, ctx);
    } catch (err) {
      const message = err instanceof SqliteReadError ? err.message : `${unit.path}: ${err instanceof Error ? err.message : String(err)}`;
      tracker.unitFailed(unit.key, message);
      tracker.diagnostic({ file: unit.path, message, kind: 'unreadable' }, ctx);
    }
  }

  return {
    agent,
    roots: () => [...rootList],
    listUnits: () => own.listUnits(),
    read,
    status: () => tracker.status(),
  };
}
