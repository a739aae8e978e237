/**
 * Hermes Agent source adapter. Units: `<root>/state.db` and every per-profile store
 * `<root>/profiles/<name>/state.db` (tombstoned profiles under `profiles/.deleted` are skipped).
 *
 * Hermes mostly appends rows, so a changed session whose earlier rows are untouched gets only its
 * new messages (seq continuing); a session whose earlier rows changed (rewind, compaction flips) is
 * re-delivered whole with `resetSessions`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Message } from '../../../../shared/model.js';
import { BatchAccumulator, SnapshotBatches } from '../session-batches.js';
import { createSqliteAdapter, databaseUnit, statOrNull, type SqliteAdapterOptions, type SqliteStore } from '../sqlite/sqlite-adapter.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { hermesCursorJson, parseHermesCursor, type HermesKnown } from './cursor.js';
import { loadHermesSessions, planHermesChanges, type LoadedHermesSession } from './db-reader.js';
import { hermesErrorLogs, hermesLimitEvents, readHermesFailures, type HermesLoggedFailure } from './limit-log.js';

export type HermesAdapterOptions = SqliteAdapterOptions;

/** The state.db files under one Hermes home: the root store and live profiles. */
export function hermesDatabases(root: string): string[] {
  const st = statOrNull(root);
  if (!st) return [];
  if (st.isFile()) return [root];
  const out: string[] = [];
  // Anything at a store's path is a unit, a directory too: reading it says why it is no database
  // (skipping it would report the agent as fine with no sessions).
  const main = path.join(root, 'state.db');
  if (statOrNull(main)) out.push(main);
  const profiles = path.join(root, 'profiles');
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(profiles, { withFileTypes: true });
  } catch {
    return out;
  }
  let tombstoned = new Set<string>();
  try {
    tombstoned = new Set(fs.readdirSync(path.join(profiles, '.deleted')));
  } catch {
    /* no tombstones */
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isDirectory() || e.name.startsWith('.') || tombstoned.has(e.name)) continue;
    const db = path.join(profiles, e.name, 'state.db');
    if (statOrNull(db)) out.push(db);
  }
  return out;
}

export function createHermesAdapter(roots: string[], options: HermesAdapterOptions = {}): SourceAdapter {
  const logs = new FailureLogCache();
  return createSqliteAdapter('hermes', roots, options, (store) => ({
    async listUnits(): Promise<SourceUnit[]> {
      const seen = new Map<string, SourceUnit>();
      for (const root of store.roots) for (const db of hermesDatabases(root)) seen.set(db, databaseUnit(db));
      return [...seen.values()];
    },
    readUnit: (unit, ctx) => readHermesUnit(store, unit, ctx, logs),
  }));
}

/** Each store's error logs, re-read only when one of them changed (size or mtime). */
class FailureLogCache {
  private readonly byStore = new Map<string, { stamp: string; failures: Map<string, HermesLoggedFailure[]> }>();

  failures(storeFile: string): Map<string, HermesLoggedFailure[]> {
    const files = hermesErrorLogs(storeFile);
    const stamp = files.map((f) => {
      const st = statOrNull(f);
      return `${f}:${st?.size ?? -1}:${st?.mtimeMs ?? -1}`;
    }).join('|');
    const hit = this.byStore.get(storeFile);
    if (hit?.stamp === stamp) return hit.failures;
    const failures = readHermesFailures(files);
    this.byStore.set(storeFile, { stamp, failures });
    return failures;
  }
}

async function* readHermesUnit({ tracker, limit, withDb }: SqliteStore, unit: SourceUnit, ctx: ReadContext, logs: FailureLogCache): AsyncGenerator<ReadBatch> {
  const file = unit.path;
  const cursor = parseHermesCursor(ctx.cursor);
  const plan = await withDb(file, (db) => planHermesChanges(db, file, cursor));
  const failures = plan.changed.length > 0 ? logs.failures(file) : new Map<string, HermesLoggedFailure[]>();

  const known: Record<string, HermesKnown> = { ...cursor.known };
  for (const id of plan.gone) delete known[id];
  let knownCount = Object.keys(known).length;
  const delivered = new Set<string>();
  // Until every changed session is delivered, a saved cursor keeps the old high-water mark: a read
  // resumed from it finds the undelivered sessions again (the delivered ones re-read as no change).
  const cursorAt = (done: boolean) =>
    hermesCursorJson({ v: 1, maxId: done ? plan.maxId : cursor.maxId, known, pending: cursor.pending.filter((id) => !delivered.has(id)) });

  const acc = new BatchAccumulator(limit);
  const goneIds = plan.gone.map((id) => `hermes:${id}`);
  acc.addGone(goneIds);
  acc.addBytes(plan.bytes);
  tracker.sessionsGone(goneIds);
  const out = new SnapshotBatches(acc, cursorAt, () => knownCount, (b) => tracker.unitRead(unit.key, b.sessions.map((s) => s.id), b.messages.length));

  const queue = plan.changed;
  let next = 0;
  while (next < queue.length) {
    if (ctx.signal?.aborted) return;
    const from = next;
    const loaded = await withDb(file, (db) => loadHermesSessions(db, file, queue, from, limit));
    next += loaded.sessions.length;
    acc.addBytes(loaded.bytes);
    for (const item of loaded.sessions) {
      if (!item.normalized) {
        if (known[item.nativeId]) {
          acc.addGone([`hermes:${item.nativeId}`]);
          delete known[item.nativeId];
          knownCount--;
        }
        delivered.add(item.nativeId);
        continue;
      }
      const { reset, messages } = sliceForDelivery(item, known[item.nativeId]);
      const now: HermesKnown = {
        fp: plan.fingerprints.get(item.nativeId) ?? '',
        rows: item.rows,
        lastId: item.lastId,
        seq: item.normalized.messages.length,
      };
      const hits = hermesLimitEvents(item.normalized.session.id, failures.get(item.nativeId) ?? []);
      acc.push({
        session: item.normalized.session,
        messages,
        reset,
        ...(hits.length ? { usage: hits } : {}),
        onDelivered: () => {
          if (!known[item.nativeId]) knownCount++;
          known[item.nativeId] = now;
          delivered.add(item.nativeId);
        },
      });
      while (out.full) yield out.next(false);
    }
  }
  yield* out.rest(ctx.cursor);
}

/**
 * Append-only when the rows delivered before (ids ≤ lastId) are still exactly there and still
 * produce the same number of messages; otherwise a full re-delivery.
 */
function sliceForDelivery(item: LoadedHermesSession, before: HermesKnown | undefined): { reset: boolean; messages: Message[] } {
  const normalized = item.normalized!;
  if (!before) return { reset: true, messages: normalized.messages };
  let rows = 0;
  let seq = 0;
  for (const span of normalized.spans) {
    if (span.id > before.lastId) break;
    rows++;
    seq = span.firstSeq + span.count;
  }
  if (rows === before.rows && seq === before.seq) return { reset: false, messages: normalized.messages.slice(seq) };
  return { reset: true, messages: normalized.messages };
}
