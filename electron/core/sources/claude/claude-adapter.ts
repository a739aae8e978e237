/**
 * Claude Code source adapter: every `projects/<folder>/*.jsonl` under each store root (main sessions
 * and flat `agent-*.jsonl` subagents) plus `projects/<folder>/<sessionId>/subagents/agent-*.jsonl`.
 * cwd comes from the records, never from the (lossy) folder name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, type RootListing } from '../jsonl/jsonl-adapter.js';
import { errorMessage } from '../jsonl/jsonl-session-reader.js';
import { addJsonlFilesIn, addUnit, listProjectsRoot } from '../jsonl/project-stores.js';
import type { SourceAdapter } from '../types.js';
import { ClaudeParser } from './claude-records.js';

async function listProject(dir: string, listing: RootListing): Promise<void> {
  let entries;
  try {
    // Synchronous, as addUnit's stat (project-stores.ts): a listing reads thousands of folders.
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    listing.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(full, listing.units);
    // <sessionId>/subagents/agent-*.jsonl (Claude Code ≥ 2.1.2); most session folders only hold tool-results/
    else if (e.isDirectory()) await addJsonlFilesIn(path.join(full, 'subagents'), listing.units);
  }
}

export function createClaudeAdapter(roots: string[] = defaultStoreRoots('claude', currentEnvironment())): SourceAdapter {
  return createJsonlAdapter('claude', roots, () => ({ parser: new ClaudeParser(), listRoot: listProjectsRoot(listProject) }));
}
