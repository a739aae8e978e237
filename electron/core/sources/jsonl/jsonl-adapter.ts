/**
 * The one JSONL source adapter (Claude Code, Codex, Gemini CLI, Qwen Code, pi): store roots, the
 * listing skeleton (each root's outcome → the source's state, units oldest first), reads from the
 * unit's cursor through readJsonlUnit, and status. An agent's file gives only what is its own: how
 * to list one root, its record parser, and the odd extra (side files to refresh, legacy formats).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../../shared/model.js';
import { SourceStatusTracker } from '../source-status.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { errorCode, errorMessage, readJsonlUnit, type RecordParser } from './jsonl-session-reader.js';

/** One listing pass, shared by the roots it visits. */
export interface RootListing {
  units: SourceUnit[];
  /** Stores already listed in this pass (by real path or folder): two roots may name one store. */
  seen: Set<string>;
  tracker: SourceStatusTracker;
}

/** What a root held: a store, nothing (missing, or a store already listed), or why it could not be read. */
export type RootOutcome = 'found' | 'absent' | { unreadable: string };

/** What only the agent knows; built once per adapter with its resolved roots and its tracker. */
export interface JsonlAgent<S> {
  parser: RecordParser<S>;
  /** Lists one store root into `listing.units`. */
  listRoot(root: string, listing: RootListing): Promise<RootOutcome>;
  /** Runs before each listing (Codex re-reads its thread names from side files, Gemini forgets its project folders). */
  beforeList?(): Promise<void> | void;
  /** Runs before each read (Codex: thread names again). */
  beforeRead?(): Promise<void>;
  /** Folders to watch instead of the roots themselves. */
  watchRoots?(): string[];
  /** Reads a unit that is not JSONL (Gemini's legacy whole-JSON sessions); null: read it as JSONL. */
  readOther?(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> | null;
}

/** The outcome of a root whose first look failed: missing (`missing` codes) or unreadable. */
export function missingOrUnreadable(err: unknown, where: string, missing: readonly string[] = ['ENOENT', 'ENOTDIR']): RootOutcome {
  return missing.includes(errorCode(err)) ? 'absent' : { unreadable: `${where}: ${errorMessage(err)}` };
}

function rootIsMissing(root: string): boolean {
  try {
    return fs.statSync(root, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

export function createJsonlAdapter<S>(
  agent: AgentId,
  roots: string[],
  describe: (adapter: { roots: readonly string[]; tracker: SourceStatusTracker }) => JsonlAgent<S>,
): SourceAdapter {
  const storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
  const tracker = new SourceStatusTracker(agent, () => storeRoots);
  const own = describe({ roots: storeRoots, tracker });
  const options = { agent, parser: own.parser, status: tracker };
  const watchRoots = own.watchRoots?.bind(own);
  const beforeRead = own.beforeRead?.bind(own);

  async function listUnits(): Promise<SourceUnit[]> {
    await own.beforeList?.();
    const listing: RootListing = { units: [], seen: new Set(), tracker };
    let found = false;
    let unreadable: string | null = null;
    for (const root of storeRoots) {
      // Most agents are not installed: a missing root is one synchronous stat, not the adapter's
      // awaited stats and the ENOENT error each of them builds (any other error is the adapter's to report).
      if (rootIsMissing(root)) continue;
      const outcome = await own.listRoot(root, listing);
      if (outcome === 'found') found = true;
      else if (outcome !== 'absent') unreadable = outcome.unreadable;
    }
    tracker.listed(found, unreadable);
    // Oldest first: an original session (or a fork's source) is read before a newer file that copied it.
    listing.units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return listing.units;
  }

  async function* readAfter(beforeRead: () => Promise<void>, unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    await beforeRead();
    yield* readJsonlUnit(unit, ctx, options);
  }

  return {
    agent,
    roots: () => [...storeRoots],
    ...(watchRoots ? { watchRoots } : {}),
    listUnits,
    read: (unit, ctx) => own.readOther?.(unit, ctx) ?? (beforeRead ? readAfter(beforeRead, unit, ctx) : readJsonlUnit(unit, ctx, options)),
    status: () => tracker.status(),
  };
}
