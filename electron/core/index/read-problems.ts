/**
 * Files Baton could not read (wholly), remembered in `index.db` so that every process (a later
 * start, `baton doctor`, the UI) sees them, not only the one that met them; a read that advanced
 * past a bad line, or a database that failed once, would otherwise look "ok" from then on.
 *
 * One row per unit and kind (see ProblemKind), kept until the file reads cleanly again:
 * - `unreadable` and `unfinished_line` describe the file as its latest read found it: each read
 *   replaces or clears them.
 * - line problems (`line_too_long`, `malformed_lines`, `invalid_utf8`) are about lines the cursor
 *   has moved past: incremental reads add to their counts; a read from the start (first read,
 *   file replaced or rewritten) starts them over, so a fixed file clears them.
 */
import type { AgentId, Diagnostic, ProblemKind, SourceProblem } from '../../../shared/model.js';
import { isRemoteKey, remoteUnitPrefix } from '../sources/unit-keys.js';
import type { SourceUnit } from '../sources/types.js';
import type { IndexDb } from './index-db.js';

/** A partial last line is normal while an agent writes; unchanged this long, it is a problem. */
export const UNFINISHED_LINE_GRACE_MS = 10 * 60 * 1000;

const LINE_KINDS: readonly ProblemKind[] = ['line_too_long', 'malformed_lines', 'invalid_utf8'];

interface Found {
  message: string;
  count: number;
  file: string;
  line: number | null;
  offset: number | null;
}

/** What one read of one unit ran into, gathered from its diagnostics. */
export class UnitReadProblems {
  /** The read started over from the file's beginning (its earlier line problems no longer hold). */
  reread = false;
  readonly found = new Map<ProblemKind, Found>();

  note(d: Omit<Diagnostic, 'at'>): void {
    if (!d.kind) return;
    if (d.kind === 'reread') {
      this.reread = true;
      // Line problems met before the restart were of the old file.
      for (const k of LINE_KINDS) this.found.delete(k);
      return;
    }
    const seen = this.found.get(d.kind);
    if (seen) {
      seen.count++;
      if (d.kind === 'unreadable' || d.kind === 'unfinished_line') seen.message = d.message; // the latest word on the file
      return;
    }
    // SQLite read errors start with their file's path: the problem names its file already.
    const message = d.message.startsWith(`${d.file}: `) ? d.message.slice(d.file.length + 2) : d.message;
    this.found.set(d.kind, { message, count: 1, file: d.file, line: d.line ?? null, offset: d.offset ?? null });
  }

  /** The file could not be read at all this time. */
  get failed(): boolean {
    return this.found.has('unreadable');
  }
}

interface ProblemRow {
  unit_key: string;
  agent: string;
  host: string | null;
  kind: ProblemKind;
  file: string;
  message: string;
  count: number;
  line: number | null;
  byte_offset: number | null;
  since: string;
}

/** The write side, on the index writer's connection (inside its transactions). */
export class ProblemStore {
  private readonly stmts;

  constructor(db: IndexDb) {
    this.stmts = {
      // A problem seen again keeps when it started; a partial last line's `since` is the file's mtime.
      upsert: db.prepare(`INSERT INTO problems (unit_key, kind, agent, host, file, message, count, line, byte_offset, since)
        VALUES (@key, @kind, @agent, @host, @file, @message, @count, @line, @offset, @since)
        ON CONFLICT (unit_key, kind) DO UPDATE SET file = excluded.file, message = excluded.message, count = excluded.count,
          line = excluded.line, byte_offset = excluded.byte_offset,
          since = CASE WHEN excluded.kind = 'unfinished_line' THEN excluded.since ELSE problems.since END`),
      addCount: db.prepare('UPDATE problems SET count = count + ? WHERE unit_key = ? AND kind = ?'),
      delete: db.prepare('DELETE FROM problems WHERE unit_key = ? AND kind = ?'),
      forget: db.prepare('DELETE FROM problems WHERE unit_key = ?'),
      unitKeys: db.prepare('SELECT DISTINCT unit_key FROM problems WHERE agent = ?').pluck(),
      unreadable: db.prepare("SELECT 1 FROM problems WHERE unit_key = ? AND kind = 'unreadable'").pluck(),
    };
  }

  /**
   * Saves what a finished read of `unit` found. `fromStart`: the read began at the file's first
   * byte (no saved cursor), so line problems are replaced rather than added to.
   */
  record(agent: AgentId, host: string | null, unit: SourceUnit, read: UnitReadProblems, fromStart: boolean): void {
    const now = new Date().toISOString();
    const put = (kind: ProblemKind, f: Found, since: string) =>
      this.stmts.upsert.run({ key: unit.key, kind, agent, host, file: f.file, message: f.message, count: f.count, line: f.line, offset: f.offset, since });
    const unreadable = read.found.get('unreadable');
    if (unreadable) {
      put('unreadable', { ...unreadable, count: 1 }, now);
      return; // nothing else was learned about the file
    }
    this.stmts.delete.run(unit.key, 'unreadable');
    const unfinished = read.found.get('unfinished_line');
    if (unfinished) put('unfinished_line', unfinished, new Date(unit.mtimeMs).toISOString());
    else this.stmts.delete.run(unit.key, 'unfinished_line');
    for (const kind of LINE_KINDS) {
      const f = read.found.get(kind);
      if (fromStart || read.reread) {
        if (f) put(kind, f, now);
        else this.stmts.delete.run(unit.key, kind);
      } else if (f) {
        // Lines after the cursor: the first bad line recorded earlier stays the one named.
        if (this.stmts.addCount.run(f.count, unit.key, kind).changes === 0) put(kind, f, now);
      }
    }
  }

  /** The unit left its store: its problems go with it. */
  forget(unitKey: string): void {
    this.stmts.forget.run(unitKey);
  }

  /** Whether the last read of the unit failed altogether. */
  unreadable(unitKey: string): boolean {
    return this.stmts.unreadable.get(unitKey) !== undefined;
  }

  /** Units of `agent` with problems (one that never read has no cursor row to notice it is gone). */
  unitKeys(agent: AgentId): string[] {
    return this.stmts.unitKeys.all(agent) as string[];
  }
}

/** Problems of one source (an agent here, or an agent on a host). */
export interface SourceProblems {
  problems: SourceProblem[];
  /** Some file of the source is unreadable and none of its other files reads. */
  unreadable: boolean;
}

/** A source's name: its agent, qualified by its host for a remote one (as StoreSync names it). */
export function problemSourceKey(agent: string, host: string | null | undefined): string {
  return host ? `${host}/${agent}` : agent;
}

/**
 * Every remembered problem, by source (see problemSourceKey), as shown to the user: a partial last
 * line only once the file has stayed unchanged past the grace period.
 */
export function readSourceProblems(db: IndexDb, now = Date.now()): Map<string, SourceProblems> {
  const rows = db.prepare('SELECT unit_key, agent, host, kind, file, message, count, line, byte_offset, since FROM problems ORDER BY file, kind').all() as ProblemRow[];
  const out = new Map<string, SourceProblems>();
  const unreadable = new Map<string, { agent: string; host: string | null; keys: Set<string> }>();
  for (const r of rows) {
    if (r.kind === 'unfinished_line' && now - Date.parse(r.since) < UNFINISHED_LINE_GRACE_MS) continue;
    const key = problemSourceKey(r.agent, r.host);
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { problems: [], unreadable: false }));
    entry.problems.push({
      file: r.file,
      kind: r.kind,
      severity: r.kind === 'invalid_utf8' ? 'warning' : 'error',
      message: r.message,
      count: r.count,
      ...(r.line === null ? {} : { line: r.line }),
      ...(r.byte_offset === null ? {} : { offset: r.byte_offset }),
      since: r.since,
    });
    if (r.kind === 'unreadable') {
      const u = unreadable.get(key) ?? { agent: r.agent, host: r.host, keys: new Set<string>() };
      u.keys.add(r.unit_key);
      unreadable.set(key, u);
    }
  }
  // A failed file has no cursor row (or one from before it failed): the source reads when another file does.
  const unitsOf = db.prepare('SELECT key FROM units WHERE agent = ?').pluck();
  for (const [key, u] of unreadable) {
    const prefix = u.host ? remoteUnitPrefix(u.host, u.agent) : null;
    const own = (unitsOf.all(u.agent) as string[]).filter((k) => (prefix ? k.startsWith(prefix) : !isRemoteKey(k)));
    out.get(key)!.unreadable = own.every((k) => u.keys.has(k));
  }
  return out;
}
