/**
 * Gemini CLI source adapter: `tmp/<project>/chats/session-*.jsonl` under each store root
 * (`$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`), subagents in `chats/<parent id>/*.jsonl`, and
 * legacy whole-JSON `session-*.json` unless the CLI already converted them to `.jsonl` beside them.
 * A root may also be the `tmp` folder, one project folder or its `chats` folder. The CLI's own
 * leftovers (`*.tmp-<pid>` mid-rewrite, `*.unreadable-<ms>` backups of a file it rewrote) are never
 * read: they repeat a session that has its real file.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SourceStatus } from '../../../../shared/model.js';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { errorCode, errorMessage, readJsonlUnit } from '../jsonl/jsonl-session-reader.js';
import { SourceStatusTracker } from '../source-status.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { GeminiParser } from './gemini-records.js';
import { readLegacyJson } from './legacy-json.js';
import { ProjectRoots } from './project-roots.js';

const LEFTOVER = /\.(tmp|unreadable)-[^/\\]*$/;

export function isChatFile(name: string, inSubagentFolder: boolean): boolean {
  if (LEFTOVER.test(name)) return false;
  if (!name.endsWith('.jsonl') && !name.endsWith('.json')) return false;
  return inSubagentFolder || name.startsWith('session-');
}

export class GeminiAdapter implements SourceAdapter {
  readonly agent = 'gemini' as const;
  private readonly storeRoots: string[];
  private readonly tracker: SourceStatusTracker;
  private readonly projects = new ProjectRoots();
  private readonly parser = new GeminiParser(this.projects);

  constructor(roots: string[] = defaultStoreRoots('gemini', currentEnvironment())) {
    this.storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
    this.tracker = new SourceStatusTracker('gemini', () => this.storeRoots);
  }

  roots(): string[] {
    return [...this.storeRoots];
  }

  /**
   * Sessions live under `tmp/`; the rest of `~/.gemini` can be bulky (checkpointing's shadow git
   * repos in `history/`, extensions). A root whose `tmp/` does not exist yet is watched whole, so
   * the first session of a fresh install is seen as it is written.
   */
  watchRoots(): string[] {
    return this.storeRoots.map((root) => {
      const tmp = path.join(root, 'tmp');
      return fs.existsSync(tmp) && !fs.existsSync(path.join(root, 'chats')) ? tmp : root;
    });
  }

  async listUnits(): Promise<SourceUnit[]> {
    this.projects.clear();
    const units: SourceUnit[] = [];
    const seen = new Set<string>();
    let found = false;
    let unreadable: string | null = null;
    for (const root of this.storeRoots) {
      let projectDirs: string[];
      try {
        projectDirs = await this.projectDirs(root);
      } catch (err) {
        if (errorCode(err) !== 'ENOENT' && errorCode(err) !== 'ENOTDIR') unreadable = `${root}: ${errorMessage(err)}`;
        continue;
      }
      found = true;
      for (const dir of projectDirs) {
        if (seen.has(dir)) continue;
        seen.add(dir);
        await this.listChats(path.join(dir, 'chats'), false, units);
      }
    }
    this.tracker.listed(found, unreadable);
    units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return units;
  }

  /** Project folders under `root`: a `.gemini` dir (has `tmp/`), its `tmp/`, one project or its `chats/`. */
  private async projectDirs(root: string): Promise<string[]> {
    const st = await fsp.stat(root);
    if (!st.isDirectory()) {
      const err = new Error('not a directory') as NodeJS.ErrnoException;
      err.code = 'ENOTDIR';
      throw err;
    }
    if (path.basename(root) === 'chats') return [path.dirname(root)];
    if (await isDir(path.join(root, 'chats'))) return [root];
    const tmp = path.join(root, 'tmp');
    const parent = (await isDir(tmp)) ? tmp : root;
    const entries = await fsp.readdir(parent, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name));
  }

  private async listChats(dir: string, subagents: boolean, units: SourceUnit[]): Promise<void> {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') this.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!subagents) await this.listChats(full, true, units); // chats/<parent sessionId>/
        continue;
      }
      if (!e.isFile() || !isChatFile(e.name, subagents)) continue;
      // The CLI converts a legacy .json to .jsonl when it resumes it: the .jsonl holds it all.
      if (e.name.endsWith('.json') && names.has(`${e.name}l`)) continue;
      try {
        const st = await fsp.stat(full);
        units.push({ key: full, path: full, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // Vanished between readdir and stat.
      }
    }
  }

  read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    if (unit.path.endsWith('.json')) return readLegacyJson(unit, ctx, this.parser, this.tracker);
    return readJsonlUnit(unit, ctx, { agent: 'gemini', parser: this.parser, status: this.tracker });
  }

  status(): SourceStatus {
    return this.tracker.status();
  }
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

export function createGeminiAdapter(roots?: string[]): GeminiAdapter {
  return new GeminiAdapter(roots);
}
