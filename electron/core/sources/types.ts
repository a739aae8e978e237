/**
 * The one small interface every agent adapter implements. The index drives adapters through it:
 * list the units of a store (a JSONL file, a SQLite database), then read each unit from the cursor
 * the index saved last time. Each batch carries the cursor to persist in the same transaction as its
 * rows, so a crash between batches neither loses nor duplicates anything.
 */
import type { AgentId, Diagnostic, Message, Session, SourceStatus, UsageEvent } from '../../../shared/model.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One readable thing in a store: a transcript file or a database. */
export interface SourceUnit {
  /** Stable key for the cursor table, e.g. the absolute path. */
  key: string;
  path: string;
  /** Bytes on disk (for SQLite: main file + WAL), used for progress and change detection. */
  size: number;
  mtimeMs: number;
  /**
   * What else the unit's sessions depend on besides its own bytes (e.g. a Codex rename, kept in
   * side files): a different stamp makes the unit changed although its size and mtime are not.
   */
  stamp?: string;
}

export interface ReadBatch {
  /** Sessions touched by this batch, each with its full current aggregate (upsert). */
  sessions: Session[];
  /** New messages; `seq` continues after the messages already delivered for the session. */
  messages: Message[];
  /** Sessions whose stored messages must be dropped before this batch's messages are inserted
   *  (file replaced or truncated, rows rewritten in place). */
  resetSessions: string[];
  /** Sessions that vanished from the store: the index keeps them, marked "source gone". */
  goneSessions: string[];
  /**
   * The unit's cursor after this batch: persisted in the same transaction as the rows. Omitted: the
   * saved cursor stays as it was. A store whose cursor is a whole-state snapshot (one entry per
   * session) saves it every few batches so a big read stays linear; reading again from an older
   * cursor delivers the same messages again, which the index takes as no change.
   */
  cursor?: JsonValue;
  /** Bytes actually read from disk to produce this batch (work counter for benchmarks/tests). */
  bytesRead: number;
  /**
   * Per-request token usage seen in this batch (agents that record it per request). Sessions with
   * none are accounted from their `Session.usage` totals instead.
   */
  usage?: UsageEvent[];
}

export interface ReadContext {
  /** Cursor saved after the last committed batch of this unit, or null for a first read. */
  cursor: JsonValue | null;
  /** Report a recoverable problem (malformed line, locked database, …); reading goes on. */
  diagnostic(d: Omit<Diagnostic, 'at'>): void;
  /** Aborted when the index shuts down or the unit is re-queued. */
  signal?: AbortSignal;
}

export interface SourceAdapter {
  readonly agent: AgentId;
  /**
   * The machine this adapter reads over SSH (its label in settings); absent for this machine's own
   * stores. A remote adapter's unit keys start with `ssh://<host>/<agent>/`, its session ids with `<host>/`.
   */
  readonly host?: string;
  /**
   * Its reads use what its own listing learned (side documents such as Droid's settings.json):
   * the read-ahead worker, whose adapters list nothing, leaves its units to the writer's thread.
   */
  readonly readsListingState?: boolean;
  /**
   * Push-based change notices (remote hosts, whose files no local watcher can see): `onChange` runs
   * when the store changed; returns the unsubscribe. IndexWriteLoop then re-syncs this adapter.
   */
  subscribe?(onChange: () => void): () => void;
  /** Releases what the adapter holds open (a remote host's SSH connection); called when the index closes. */
  close?(): void;
  /** Store roots to watch (existing or not); the watcher re-lists units when anything under them changes. */
  roots(): string[];
  /** Narrower folders to watch than `roots()`, when a root also holds bulky non-session trees. */
  watchRoots?(): string[];
  /** The units currently present. A missing root is not an error: it yields nothing. */
  listUnits(): Promise<SourceUnit[]>;
  /** Read what changed in `unit` since `ctx.cursor`, in batches of bounded size. */
  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch>;
  /** Sessions, diagnostics and errors seen so far. */
  status(): SourceStatus;
}
