/**
 * Brings the index current with the stores: list each adapter's units, skip the ones whose size and
 * mtime match the last complete read, read the rest from their saved cursors, and mark sessions of
 * vanished units as gone. All runs are serialized on one queue, so a watcher event arriving during
 * a cold index simply waits its turn. Work is counted (bytes read, rows written) for tests and bench.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { IndexProgress } from '../../../shared/api-types.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../sources/types.js';
import { isRemoteKey, remoteUnitPrefix } from '../sources/unit-keys.js';
import type { IndexLog } from '../index/index-db.js';
import type { IndexBatch, IndexWriter } from '../index/index-writer.js';
import { READ_AHEAD_MIN_BYTES, READ_AHEAD_WRITER_TAKES_UP_TO, ReadAhead, ReadAheadUnavailable, type ReadAheadOptions } from './read-ahead.js';
import { ReadAheadStatus } from './read-ahead-status.js';
import { UnitReadProblems } from '../index/read-problems.js';

export interface SyncCounters {
  unitsListed: number;
  unitsRead: number;
  unitsSkipped: number;
  unitsGone: number;
  batches: number;
  /** Of `batches`, those parsed by the read-ahead worker. */
  batchesReadAhead: number;
  bytesRead: number;
  sessionsWritten: number;
  messagesWritten: number;
}

export interface StoreSyncOptions {
  /** Parse big syncAll runs in a worker thread with its own adapters (see read-ahead.ts). */
  readAhead?: ReadAheadOptions;
  /** A syncAll that wrote at least this many messages is followed by FTS compaction (default 20,000). */
  compactAfterMessages?: number;
  /**
   * Leave that compaction to the next long-running process (the app, `baton serve`): it is only
   * recorded as due in the index (see IndexWriter.compactionDue). A one-shot `baton index` then
   * ends when its rows are in: the merge rewrites the whole FTS index (~10 % of a cold index's
   * time) for a search speed-up the running app gets at idle anyway; FTS5's own automerge keeps the
   * segment count bounded in between.
   */
  deferCompaction?: boolean;
}

const COMPACT_AFTER_MESSAGES = 20_000;

/** Where readUnit takes a unit's batches from when the read-ahead worker parsed them. */
interface AheadUnit {
  reader: ReadAhead;
  index: number;
}

export interface StoreSyncEvents {
  progress: [IndexProgress];
  'sessions-changed': [string[]];
}

const MAX_DIAGNOSTICS = 50;

function emptyCounters(): SyncCounters {
  return { unitsListed: 0, unitsRead: 0, unitsSkipped: 0, unitsGone: 0, batches: 0, batchesReadAhead: 0, bytesRead: 0, sessionsWritten: 0, messagesWritten: 0 };
}

function statSize(file: string): { size: number; mtimeMs: number } | null {
  try {
    const s = fs.statSync(file);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/** Whether a listed unit is as it was at its last complete read (size, mtime and stamp all equal). */
function sameAsSynced(unit: SourceUnit, saved: { size: number | null; mtimeMs: number | null; stamp: string | null } | undefined): boolean {
  return saved !== undefined && saved.size === unit.size && saved.mtimeMs === unit.mtimeMs && saved.stamp === (unit.stamp ?? null);
}

/** SQLite side files map to their database; everything else maps to itself. */
function unitPathFor(file: string): string {
  return file.replace(/-(wal|shm|journal)$/, '');
}

/** One adapter's name among all: its agent, qualified by its host for a remote one. */
function sourceKey(adapter: SourceAdapter): string {
  return adapter.host ? `${adapter.host}/${adapter.agent}` : adapter.agent;
}

/** Whether a saved unit key (of the adapter's agent) is one of this adapter's units. */
function ownsKey(adapter: SourceAdapter, key: string): boolean {
  return adapter.host ? key.startsWith(remoteUnitPrefix(adapter.host, adapter.agent)) : !isRemoteKey(key);
}

function isUnder(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class StoreSync extends EventEmitter<StoreSyncEvents> {
  /** Totals since construction. */
  readonly counters: SyncCounters = emptyCounters();
  private state: IndexProgress = { phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, currentAt: null, error: null };
  private queue: Promise<unknown> = Promise.resolve();
  private readonly abort = new AbortController();
  /** Last listing per adapter: unit path → unit, so a watcher event maps to its unit without re-listing. */
  private readonly known = new Map<string, Map<string, SourceUnit>>();
  /** By source key (see sourceKey): a remote host's agent is a source of its own. */
  private readonly diagnostics = new Map<string, Diagnostic[]>();
  private readonly errors = new Map<string, string | null>();
  /** Problems met by the read of each unit (by path) in progress, saved when the read ends. */
  private readonly unitProblems = new Map<string, UnitReadProblems>();
  private lastEmit = 0;
  /** Inside a group transaction: changed sessions not committed yet (announced at the next commit). */
  private uncommitted: Set<string> | null = null;
  /** What the read-ahead worker's adapters read, for sourceStatus(). */
  private readonly readStatus = new ReadAheadStatus();
  private compaction: Promise<void> | null = null;

  constructor(
    private readonly writer: IndexWriter,
    readonly adapters: SourceAdapter[],
    private readonly log: IndexLog = () => {},
    private readonly opts: StoreSyncOptions = {},
  ) {
    super();
  }

  progress(): IndexProgress {
    return { ...this.state };
  }

  setPhase(phase: IndexProgress['phase']): void {
    this.state = { ...this.state, phase };
    this.emit('progress', this.progress());
  }

  /** Stops reading between batches; queued runs resolve without doing work. */
  stop(): void {
    this.abort.abort();
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    // Problems noted for units a run never finished (aborted, a remote path) are dropped after it.
    const next = this.queue.then(() => (this.abort.signal.aborted ? (undefined as T) : run())).finally(() => this.unitProblems.clear());
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Lists every adapter's units and reads what changed (all units when `force`). */
  syncAll(opts: { force?: boolean } = {}): Promise<SyncCounters> {
    return this.enqueue(async () => {
      const run = emptyCounters();
      // A reconcile while watching stays "watching" unless it finds work, so the UI does not flicker.
      const live = this.state.phase === 'watching';
      this.state = { ...this.state, phase: live ? 'watching' : 'scanning', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, error: null };
      if (!live) this.emit('progress', this.progress());
      const work: { adapter: SourceAdapter; unit: SourceUnit }[] = [];
      // One query for every unit's last read, not a look-up per listed unit (runs are serialized,
      // so nothing writes the units table between this snapshot and the comparisons).
      const synced = opts.force ? null : this.writer.syncedUnits();
      for (const adapter of this.adapters) {
        const units = await this.list(adapter, run);
        if (!units) continue;
        for (const unit of units) {
          if (synced && sameAsSynced(unit, synced.get(unit.key))) run.unitsSkipped++;
          else work.push({ adapter, unit });
        }
      }
      // Oldest first: recently active sessions end up with the highest rowids, which search favours.
      work.sort((a, b) => a.unit.mtimeMs - b.unit.mtimeMs);
      // Files that could not be read are tried at every pass: retrying only them is no news for the UI.
      const news = work.some((w) => !this.writer.problems.unreadable(w.unit.key));
      this.state = {
        ...this.state,
        phase: live && !news ? 'watching' : 'indexing',
        filesTotal: work.length,
        bytesTotal: work.reduce((n, w) => n + w.unit.size, 0),
      };
      if (!live || news) this.emit('progress', this.progress());
      const ahead = this.startReadAhead(work);
      try {
        // A pass big enough to read ahead is a bulk load (a cold index, a rebuild): see beginGroup.
        this.writer.beginGroup({ bulk: ahead !== null });
        this.uncommitted = new Set();
        try {
          for (const [index, { adapter, unit }] of work.entries()) {
            if (this.abort.signal.aborted) break;
            await this.readUnit(adapter, unit, run, ahead && { reader: ahead, index });
            this.state.filesDone++;
            this.state.bytesDone += unit.size;
            this.emitProgressThrottled();
          }
        } finally {
          try {
            this.writer.endGroup();
          } finally {
            this.announceCommitted();
          }
        }
        if (ahead && !this.abort.signal.aborted) {
          const status = await ahead.finalStatus();
          if (status) this.readStatus.addWorkerStatus(status);
          else this.log('warn', 'read-ahead worker sent no status; source status undercounts files read and skipped lines');
        }
      } finally {
        await ahead?.close();
      }
      this.state = { ...this.state, phase: live ? 'watching' : 'idle', currentAt: new Date().toISOString() };
      this.emit('progress', this.progress());
      if (run.messagesWritten >= (this.opts.compactAfterMessages ?? COMPACT_AFTER_MESSAGES)) {
        // Recorded first: a process stopped before the merge ends leaves it to the next one.
        this.writer.setCompactionDue(true);
        if (!this.opts.deferCompaction) this.compactInBackground();
      }
      return run;
    });
  }

  /**
   * A bulk write leaves FTS5 with dozens of segments that every query must merge (a cold index of
   * 1 M messages: search p95 ≈ 35 ms, against ≈ 12 ms once merged). The merge runs as short steps on
   * the sync queue, so watcher appends and reconciles slip in between steps instead of waiting.
   */
  private compactInBackground(): void {
    if (this.compaction) return;
    this.compaction = (async () => {
      try {
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          const more = await this.enqueue(async () => this.writer.compactStep());
          if (this.abort.signal.aborted) break;
          if (!more) {
            await this.enqueue(async () => this.writer.setCompactionDue(false));
            break;
          }
        }
      } catch (err) {
        this.log('warn', `index compaction stopped: ${message(err)}`);
      } finally {
        this.compaction = null;
      }
    })();
  }

  /** Starts the FTS compaction a one-shot process left due (see deferCompaction), if any. */
  compactIfDue(): void {
    if (!this.opts.deferCompaction && this.writer.compactionDue()) this.compactInBackground();
  }

  /** Resolves when no FTS compaction is running (at once when none is). */
  whenCompacted(): Promise<void> {
    return this.compaction ?? Promise.resolve();
  }

  /** Reads the units behind changed paths (from the watcher); unknown paths re-list their adapter. */
  syncPaths(paths: string[]): Promise<SyncCounters> {
    return this.enqueue(async () => {
      const run = emptyCounters();
      const relist = new Set<SourceAdapter>();
      const targets = new Map<string, { adapter: SourceAdapter; unit: SourceUnit }>();
      for (const raw of paths) {
        const file = unitPathFor(path.resolve(raw));
        const adapter = this.adapterFor(file);
        if (!adapter) continue;
        const unit = this.known.get(sourceKey(adapter))?.get(file);
        if (!unit) {
          relist.add(adapter);
          continue;
        }
        const now = statSize(file);
        if (!now) {
          relist.add(adapter); // deleted: the re-list marks it gone
          continue;
        }
        // A SQLite unit's size counts its WAL, as the adapters report it.
        const wal = statSize(`${file}-wal`);
        const fresh: SourceUnit = { ...unit, size: now.size + (wal?.size ?? 0), mtimeMs: Math.max(now.mtimeMs, wal?.mtimeMs ?? 0) };
        targets.set(unit.key, { adapter, unit: fresh });
      }
      for (const adapter of relist) {
        const units = await this.list(adapter, run);
        for (const unit of units ?? []) {
          if (!targets.has(unit.key) && !this.unchanged(unit)) targets.set(unit.key, { adapter, unit });
        }
      }
      for (const { adapter, unit } of targets.values()) {
        if (this.abort.signal.aborted) break;
        await this.readUnit(adapter, unit, run);
      }
      if (run.unitsRead > 0 || run.unitsGone > 0) this.state = { ...this.state, currentAt: new Date().toISOString() };
      return run;
    });
  }

  /** Re-lists and reads the given adapters only (a remote host that reported a change). */
  syncAdapters(adapters: SourceAdapter[]): Promise<SyncCounters> {
    return this.enqueue(async () => {
      const run = emptyCounters();
      for (const adapter of adapters) {
        const units = await this.list(adapter, run);
        for (const unit of units ?? []) {
          if (this.abort.signal.aborted) break;
          if (!this.unchanged(unit)) await this.readUnit(adapter, unit, run);
          else run.unitsSkipped++;
        }
      }
      if (run.unitsRead > 0 || run.unitsGone > 0) this.state = { ...this.state, currentAt: new Date().toISOString() };
      return run;
    });
  }

  sourceStatus(): SourceStatus[] {
    return this.adapters.map((a) => {
      // Remote adapters never read ahead: the worker's counts are the local agent's.
      const s = a.host ? a.status() : this.readStatus.merge(a.status());
      const seen = new Set(s.diagnostics.map((d) => `${d.file}:${d.line ?? ''}:${d.message}`));
      const extra = (this.diagnostics.get(sourceKey(a)) ?? []).filter((d) => !seen.has(`${d.file}:${d.line ?? ''}:${d.message}`));
      const error = this.errors.get(sourceKey(a)) ?? null;
      return {
        ...s,
        lastError: s.lastError ?? error,
        state: s.state === 'ok' && error ? 'unreadable' : s.state,
        diagnostics: [...s.diagnostics, ...extra].slice(-MAX_DIAGNOSTICS),
      };
    });
  }

  private adapterFor(file: string): SourceAdapter | undefined {
    return this.adapters.find((a) => a.roots().some((r) => isUnder(file, path.resolve(r))));
  }

  /** A read-ahead worker for this run's work list, when configured and the work is big enough. */
  private startReadAhead(work: { adapter: SourceAdapter; unit: SourceUnit }[]): ReadAhead | null {
    const opts = this.opts.readAhead;
    if (!opts || work.length === 0 || this.state.bytesTotal < (opts.minBytes ?? READ_AHEAD_MIN_BYTES)) return null;
    // Each unit appears once per run and runs are serialized, so the saved cursor is the one to read from.
    // The worker reads this machine's stores only; a remote unit is a skip there and read here.
    const items = work.map(({ adapter, unit }) => ({
      agent: adapter.agent,
      unit,
      cursor: this.writer.getUnit(unit.key)?.cursor ?? null,
      ...(adapter.host || adapter.readsListingState ? { remote: true } : {}),
    }));
    try {
      return new ReadAhead(items, opts, {
        signal: this.abort.signal,
        diagnostic: (agent, d) => this.addDiagnostic(agent, d),
        log: this.log,
      });
    } catch (err) {
      this.log('warn', `read-ahead worker could not start (${message(err)}); reading on this thread`);
      return null;
    }
  }

  private unchanged(unit: SourceUnit): boolean {
    const saved = this.writer.getUnit(unit.key);
    return saved !== null && sameAsSynced(unit, { size: saved.syncedSize, mtimeMs: saved.syncedMtime, stamp: saved.syncedStamp });
  }

  private emitProgressThrottled(): void {
    const now = Date.now();
    if (now - this.lastEmit < 100 && this.state.filesDone < this.state.filesTotal) return;
    this.lastEmit = now;
    this.emit('progress', this.progress());
  }

  private async list(adapter: SourceAdapter, run: SyncCounters): Promise<SourceUnit[] | null> {
    let units: SourceUnit[];
    try {
      units = await adapter.listUnits();
    } catch (err) {
      this.fail(adapter, `listing units failed: ${message(err)}`);
      return null; // leave what the index holds untouched: a listing error (an offline host) is not a deletion
    }
    const byPath = new Map(units.map((u) => [adapter.host ? u.path : path.resolve(u.path), u]));
    this.known.set(sourceKey(adapter), byPath);
    run.unitsListed += units.length;
    this.counters.unitsListed += units.length;
    const present = new Set(units.map((u) => u.key));
    const changed: string[] = [];
    for (const key of this.writer.unitKeys(adapter.agent)) {
      if (present.has(key) || !ownsKey(adapter, key)) continue;
      changed.push(...this.writer.unitGone(key));
      run.unitsGone++;
      this.counters.unitsGone++;
    }
    for (const key of this.writer.problems.unitKeys(adapter.agent)) {
      if (!present.has(key) && ownsKey(adapter, key)) this.writer.problems.forget(key);
    }
    if (changed.length) this.emit('sessions-changed', changed);
    return units;
  }

  private async readUnit(adapter: SourceAdapter, unit: SourceUnit, run: SyncCounters, ahead: AheadUnit | null = null): Promise<void> {
    const saved = this.writer.getUnit(unit.key);
    const cursor = saved?.cursor ?? null;
    // A unit read from scratch replaces whatever the index holds for its sessions (it may have
    // vanished and come back shorter); each session is reset once, at its first batch.
    const resetOnFirstSight = cursor === null ? new Set<string>() : null;
    const changed = new Set<string>();
    try {
      for await (const batch of this.batches(adapter, unit, cursor, ahead, run)) {
        let extra: string[] = [];
        if (resetOnFirstSight) {
          const ids = new Set([...batch.sessions.map((s) => s.id), ...batch.messages.map((m) => m.sessionId)]);
          extra = [...ids].filter((id) => !resetOnFirstSight.has(id));
          for (const id of extra) resetOnFirstSight.add(id);
        }
        const r = this.writer.apply(adapter.agent, unit, batch, extra);
        if (r.committed && this.uncommitted) {
          for (const id of changed) this.uncommitted.add(id);
          changed.clear();
          this.announceCommitted();
        }
        run.batches++;
        run.bytesRead += batch.bytesRead;
        run.sessionsWritten += r.sessionsWritten;
        run.messagesWritten += r.messagesWritten;
        this.counters.batches++;
        this.counters.bytesRead += batch.bytesRead;
        this.counters.sessionsWritten += r.sessionsWritten;
        this.counters.messagesWritten += r.messagesWritten;
        for (const id of r.sessionIds) changed.add(id);
        if (this.abort.signal.aborted) return;
      }
      const problems = this.takeProblems(unit);
      this.writer.problems.record(adapter.agent, adapter.host ?? null, unit, problems, cursor === null);
      // A file that could not be read is tried again at every pass, not only when it changes: a
      // permission fixed with chmod leaves its size and mtime as they were.
      if (!problems.failed) this.writer.markSynced(adapter.agent, unit);
      run.unitsRead++;
      this.counters.unitsRead++;
      this.errors.set(sourceKey(adapter), null);
    } catch (err) {
      if (this.abort.signal.aborted) return;
      this.fail(adapter, `${unit.path}: ${message(err)}`);
      this.addDiagnostic(sourceKey(adapter), { file: unit.path, message: message(err), kind: 'unreadable' });
      this.saveFailure(adapter, unit);
    } finally {
      if (this.uncommitted) for (const id of changed) this.uncommitted.add(id);
      else if (changed.size) this.emit('sessions-changed', [...changed]);
    }
  }

  /**
   * A unit's batches: from the read-ahead worker when it parsed them, else (or from the last
   * applied cursor on, if the worker died mid-unit) from this thread's adapter.
   */
  private async *batches(
    adapter: SourceAdapter,
    unit: SourceUnit,
    cursor: JsonValue | null,
    ahead: AheadUnit | null,
    run: SyncCounters,
  ): AsyncGenerator<ReadBatch> {
    let from = cursor;
    // A small unit the worker has not begun while this thread would wait for it: read it here.
    const takesUpTo = this.opts.readAhead?.writerTakesUpTo ?? READ_AHEAD_WRITER_TAKES_UP_TO;
    const here = ahead !== null && unit.size <= takesUpTo && ahead.reader.takeIfWaiting(ahead.index);
    if (ahead?.reader.alive && !here) {
      // The last batch applied with a cursor: that cursor (parsed only if the worker fails) is where
      // to go on from (batches after it are delivered again, which changes nothing).
      let last: IndexBatch | null = null;
      try {
        for await (const batch of ahead.reader.batches(ahead.index)) {
          if (batch.cursorJson !== undefined) last = batch;
          this.readStatus.noteApplied(adapter.agent, batch, true);
          run.batchesReadAhead++;
          this.counters.batchesReadAhead++;
          yield batch;
        }
        return;
      } catch (err) {
        if (!(err instanceof ReadAheadUnavailable)) throw err;
        if (last) from = last.cursor ?? null;
      }
    }
    const batches = adapter.read(unit, {
      cursor: from,
      signal: this.abort.signal,
      diagnostic: (d) => this.addDiagnostic(sourceKey(adapter), d),
    });
    for await (const batch of batches) {
      if (!adapter.host) this.readStatus.noteApplied(adapter.agent, batch, false);
      yield batch;
    }
  }

  /** Emits the sessions changed by a group transaction once they are committed. */
  private announceCommitted(): void {
    const ids = this.uncommitted;
    if (!ids) return;
    this.uncommitted = null;
    if (ids.size) this.emit('sessions-changed', [...ids]);
    if (this.writer.inGroup()) this.uncommitted = new Set();
  }

  private fail(adapter: SourceAdapter, text: string): void {
    this.errors.set(sourceKey(adapter), text);
    this.log('warn', `${sourceKey(adapter)}: ${text}`);
  }

  private takeProblems(unit: SourceUnit): UnitReadProblems {
    const found = this.unitProblems.get(unit.path) ?? new UnitReadProblems();
    this.unitProblems.delete(unit.path);
    return found;
  }

  /** Remembers a read that threw (best effort: the index itself may be what failed). */
  private saveFailure(adapter: SourceAdapter, unit: SourceUnit): void {
    try {
      this.writer.problems.record(adapter.agent, adapter.host ?? null, unit, this.takeProblems(unit), false);
    } catch (err) {
      this.log('warn', `could not remember the problem with ${unit.path}: ${message(err)}`);
    }
  }

  /** `key`: the source key; a read-ahead diagnostic is always a local agent's. */
  private addDiagnostic(key: string, d: Omit<Diagnostic, 'at'>): void {
    if (d.kind) {
      // Keyed by file: the read-ahead worker reports a unit's diagnostics before the writer reaches it.
      let found = this.unitProblems.get(d.file);
      if (!found) this.unitProblems.set(d.file, (found = new UnitReadProblems()));
      found.note(d);
      // A partial last line is normal while an agent writes; the index lists it only once it stays.
      if (d.kind === 'unfinished_line') return;
    }
    const list = this.diagnostics.get(key) ?? [];
    list.push({ ...d, at: new Date().toISOString() });
    if (list.length > MAX_DIAGNOSTICS) list.splice(0, list.length - MAX_DIAGNOSTICS);
    this.diagnostics.set(key, list);
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
