/**
 * Codex CLI source adapter: `sessions/**\/rollout-*.jsonl` (YYYY/MM/DD and the older flat layout)
 * and `archived_sessions/rollout-*.jsonl[.zst]` under each CODEX_HOME; a plain `.jsonl` wins over
 * its `.zst` sibling. Thread names come from session_index.jsonl and state_<N>.sqlite.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { errorCode, errorMessage, readJsonlUnit } from '../jsonl/jsonl-session-reader.js';
import { SourceStatusTracker } from '../source-status.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import type { SourceStatus } from '../../../../shared/model.js';
import { CodexParser, UUID_AT_END } from './codex-records.js';
import { CodexTitles } from './codex-titles.js';

const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
/** sessions/YYYY/MM/DD is three levels deep; allow one more for safety, never unbounded. */
const MAX_DEPTH = 4;

export class CodexAdapter implements SourceAdapter {
  readonly agent = 'codex' as const;
  private readonly storeRoots: string[];
  private readonly tracker: SourceStatusTracker;
  private readonly titles: CodexTitles;
  private readonly parser: CodexParser;

  constructor(roots: string[] = defaultStoreRoots('codex', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new SourceStatusTracker('codex', () => this.storeRoots);
    this.titles = new CodexTitles(this.storeRoots, (file, message, line) => this.tracker.diagnostic(line ? { file, line, message } : { file, message }));
    this.parser = new CodexParser((id) => this.titles.lookup(id));
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  async listUnits(): Promise<SourceUnit[]> {
    const units: SourceUnit[] = [];
    let found = false;
    let unreadable: string | null = null;
    // Renames live in side files: they stamp the rollouts they name (see CodexTitles.stamp).
    await this.titles.refresh();
    for (const root of this.storeRoots) {
      try {
        const st = await fsp.stat(root);
        if (!st.isDirectory()) continue;
      } catch (err) {
        if (errorCode(err) !== 'ENOENT') unreadable = `${root}: ${errorMessage(err)}`;
        continue;
      }
      found = true;
      await this.walk(path.join(root, 'sessions'), 0, units);
      await this.walk(path.join(root, 'archived_sessions'), 0, units);
    }
    this.tracker.listed(found, unreadable);
    units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return units;
  }

  private async walk(dir: string, depth: number, units: SourceUnit[]): Promise<void> {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') this.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
      return;
    }
    const plain = new Set(entries.filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => e.name));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) await this.walk(full, depth + 1, units);
        continue;
      }
      if (!e.isFile() || !ROLLOUT.test(e.name)) continue;
      // Codex decompresses an archive back to .jsonl when it reopens it: that copy is current.
      if (e.name.endsWith('.zst') && plain.has(e.name.slice(0, -'.zst'.length))) continue;
      try {
        const st = await fsp.stat(full);
        const id = UUID_AT_END.exec(e.name)?.[1]?.toLowerCase();
        const stamp = id ? this.titles.stamp(id) : undefined;
        units.push({ key: full, path: full, size: st.size, mtimeMs: st.mtimeMs, ...(stamp ? { stamp } : {}) });
      } catch {
        // Vanished between readdir and stat.
      }
    }
  }

  async *read(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    await this.titles.refresh();
    yield* readJsonlUnit(unit, ctx, { agent: 'codex', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.status();
  }
}

export function createCodexAdapter(roots?: string[]): CodexAdapter {
  return new CodexAdapter(roots);
}
