/**
 * pi source adapter. A root is a sessions folder: pi's default one holds a `--<cwd>--/` folder per
 * project, while `--session-dir` / PI_CODING_AGENT_SESSION_DIR / settings `sessionDir` folders are
 * flat, so both `<root>/*.jsonl` and `<root>/<folder>/*.jsonl` are listed. A root that is pi's agent
 * folder itself (`~/.pi/agent`, as a user may type it in Settings) is read through its `sessions/`.
 * The cwd comes from each file's header, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { errorCode, errorMessage, readJsonlUnit } from '../jsonl/jsonl-session-reader.js';
import { SourceStatusTracker } from '../source-status.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import type { SourceStatus } from '../../../../shared/model.js';
import { PiParser } from './pi-records.js';

export class PiAdapter implements SourceAdapter {
  readonly agent = 'pi' as const;
  private readonly storeRoots: string[];
  private readonly tracker: SourceStatusTracker;
  private readonly parser = new PiParser();

  constructor(roots: string[] = defaultStoreRoots('pi', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new SourceStatusTracker('pi', () => this.storeRoots);
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  async listUnits(): Promise<SourceUnit[]> {
    const units: SourceUnit[] = [];
    const seen = new Set<string>();
    let found = false;
    let unreadable: string | null = null;
    for (const root of this.storeRoots) {
      let dir = root;
      let entries;
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
        if (entries.some((e) => e.isDirectory() && e.name === 'sessions') && !entries.some((e) => e.name.endsWith('.jsonl'))) {
          dir = path.join(root, 'sessions'); // the agent folder was given
          entries = await fsp.readdir(dir, { withFileTypes: true });
        }
        const real = await fsp.realpath(dir);
        if (seen.has(real)) continue; // two roots naming the same store
        seen.add(real);
      } catch (err) {
        const code = errorCode(err);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable = `${dir}: ${errorMessage(err)}`;
        continue;
      }
      found = true;
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(full, units);
        else if (e.isDirectory()) await this.listFolder(full, units);
      }
    }
    this.tracker.listed(found, unreadable);
    // Oldest first, so a fork's source is read before the fork that copied it.
    units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return units;
  }

  private async listFolder(dir: string, units: SourceUnit[]): Promise<void> {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      this.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
      return;
    }
    for (const e of entries) if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(path.join(dir, e.name), units);
  }

  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    return readJsonlUnit(unit, ctx, { agent: 'pi', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.status();
  }
}

async function addUnit(file: string, units: SourceUnit[]): Promise<void> {
  try {
    const st = await fsp.stat(file);
    units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs });
  } catch {
    // Vanished between readdir and stat: the next listing will not show it either.
  }
}

export function createPiAdapter(roots?: string[]): PiAdapter {
  return new PiAdapter(roots);
}
