/**
 * Claude Code source adapter: every `projects/<folder>/*.jsonl` under each store root (main sessions
 * and flat `agent-*.jsonl` subagents) plus `projects/<folder>/<sessionId>/subagents/agent-*.jsonl`.
 * cwd comes from the records, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { errorMessage, readJsonlUnit } from '../jsonl/jsonl-session-reader.js';
import { SourceStatusTracker } from '../source-status.js';
import { addJsonlFilesIn, addUnit, listProjectStores } from '../jsonl/project-stores.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import type { SourceStatus } from '../../../../shared/model.js';
import { ClaudeParser } from './claude-records.js';

export class ClaudeAdapter implements SourceAdapter {
  readonly agent = 'claude' as const;
  private readonly storeRoots: string[];
  private readonly tracker: SourceStatusTracker;
  private readonly parser = new ClaudeParser();

  constructor(roots: string[] = defaultStoreRoots('claude', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new SourceStatusTracker('claude', () => this.storeRoots);
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  listUnits(): Promise<SourceUnit[]> {
    return listProjectStores(this.storeRoots, this.tracker, (dir, units) => this.listProject(dir, units));
  }

  private async listProject(dir: string, units: SourceUnit[]): Promise<void> {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      this.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(full, units);
      // <sessionId>/subagents/agent-*.jsonl (Claude Code ≥ 2.1.2); most session folders only hold tool-results/
      else if (e.isDirectory()) await addJsonlFilesIn(path.join(full, 'subagents'), units);
    }
  }

  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    return readJsonlUnit(unit, ctx, { agent: 'claude', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.status();
  }
}

export function createClaudeAdapter(roots?: string[]): ClaudeAdapter {
  return new ClaudeAdapter(roots);
}
