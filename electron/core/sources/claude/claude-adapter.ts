/**
 * Claude Code source adapter: every `projects/<folder>/*.jsonl` under each store root (main sessions
 * and flat `agent-*.jsonl` subagents) plus `projects/<folder>/<sessionId>/subagents/agent-*.jsonl`.
 * cwd comes from the records, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { errorCode, errorMessage, readJsonlUnit, StatusTracker } from '../jsonl-session-reader.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import type { SourceStatus } from '../../../../shared/model.js';
import { ClaudeParser } from './claude-records.js';

export class ClaudeAdapter implements SourceAdapter {
  readonly agent = 'claude' as const;
  private readonly storeRoots: string[];
  private readonly tracker: StatusTracker;
  private readonly parser = new ClaudeParser();

  constructor(roots: string[] = defaultStoreRoots('claude', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new StatusTracker('claude', this.storeRoots);
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  async listUnits(): Promise<SourceUnit[]> {
    const units: SourceUnit[] = [];
    const seenReal = new Set<string>();
    let found = false;
    let unreadable: string | null = null;
    for (const root of this.storeRoots) {
      const projects = path.join(root, 'projects');
      let real: string;
      try {
        real = await fsp.realpath(projects);
      } catch (err) {
        if (errorCode(err) !== 'ENOENT' && errorCode(err) !== 'ENOTDIR') unreadable = `${projects}: ${errorMessage(err)}`;
        continue;
      }
      if (seenReal.has(real)) continue; // two roots pointing at the same store
      seenReal.add(real);
      let folders;
      try {
        folders = await fsp.readdir(projects, { withFileTypes: true });
      } catch (err) {
        unreadable = `${projects}: ${errorMessage(err)}`;
        continue;
      }
      found = true;
      for (const folder of folders) {
        if (!folder.isDirectory()) continue;
        await this.listProject(path.join(projects, folder.name), units);
      }
    }
    this.tracker.state = found ? 'ok' : unreadable ? 'unreadable' : 'not_found';
    if (!found && unreadable) this.tracker.lastError = unreadable;
    // Oldest first, so an original session is read before a newer file that copied its history.
    units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return units;
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
      else if (e.isDirectory()) {
        // <sessionId>/subagents/agent-*.jsonl (Claude Code ≥ 2.1.2)
        const sub = path.join(full, 'subagents');
        let subEntries;
        try {
          subEntries = await fsp.readdir(sub, { withFileTypes: true });
        } catch {
          continue; // most session folders only hold tool-results/
        }
        for (const s of subEntries) {
          if (s.isFile() && s.name.endsWith('.jsonl')) await addUnit(path.join(sub, s.name), units);
        }
      }
    }
  }

  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    return readJsonlUnit(unit, ctx, { agent: 'claude', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.snapshot();
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

export function createClaudeAdapter(roots?: string[]): ClaudeAdapter {
  return new ClaudeAdapter(roots);
}
