/**
 * Qwen Code source adapter: `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`
 * under each store root, plus subagent transcripts in `projects/<…>/subagents/<parent id>/*.jsonl`.
 * Side files (`*.runtime.json`, `*.meta.json`, `*.jsonl.stream`) are not transcripts. cwd comes
 * from the records, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, type RootListing } from '../jsonl/jsonl-adapter.js';
import { addJsonlFilesIn, listProjectsRoot } from '../jsonl/project-stores.js';
import type { SourceAdapter } from '../types.js';
import { QwenParser } from './qwen-records.js';

async function listProject(dir: string, { units }: RootListing): Promise<void> {
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

export function createQwenAdapter(roots: string[] = defaultStoreRoots('qwen', currentEnvironment())): SourceAdapter {
  return createJsonlAdapter('qwen', roots, () => ({ parser: new QwenParser(), listRoot: listProjectsRoot(listProject) }));
}
