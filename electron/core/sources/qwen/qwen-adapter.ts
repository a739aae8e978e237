/**
 * Qwen Code source adapter: `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`
 * under each store root, plus subagent transcripts in `projects/<…>/subagents/<parent id>/*.jsonl`.
 * Side files (`*.runtime.json`, `*.meta.json`, `*.jsonl.stream`) are not transcripts. cwd comes
 * from the records, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SourceStatus } from '../../../../shared/model.js';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { readJsonlUnit } from '../jsonl/jsonl-session-reader.js';
import { SourceStatusTracker } from '../source-status.js';
import { addJsonlFilesIn, listProjectStores } from '../jsonl/project-stores.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { QwenParser } from './qwen-records.js';

export class QwenAdapter implements SourceAdapter {
  readonly agent = 'qwen' as const;
  private readonly storeRoots: string[];
  private readonly tracker: SourceStatusTracker;
  private readonly parser = new QwenParser();

  constructor(roots: string[] = defaultStoreRoots('qwen', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new SourceStatusTracker('qwen', () => this.storeRoots);
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  listUnits(): Promise<SourceUnit[]> {
    return listProjectStores(this.storeRoots, this.tracker, (dir, units) => listProject(dir, units));
  }

  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    return readJsonlUnit(unit, ctx, { agent: 'qwen', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.status();
  }
}

async function listProject(dir: string, units: SourceUnit[]): Promise<void> {
  await addJsonlFilesIn(path.join(dir, 'chats'), units);
  const subagents = path.join(dir, 'subagents');
  let parents;
  try {
    parents = await fsp.readdir(subagents, { withFileTypes: true });
  } catch {
    return; // only projects that ran a subagent have the folder
  }
  for (const p of parents) if (p.isDirectory()) await addJsonlFilesIn(path.join(subagents, p.name), units);
}

export function createQwenAdapter(roots?: string[]): QwenAdapter {
  return new QwenAdapter(roots);
}
