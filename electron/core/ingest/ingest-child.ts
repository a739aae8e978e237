/**
 * A cold index in its own process, for the crash-safety test (which SIGKILLs it mid-ingest).
 * Commits after every batch (so a kill lands between commits) and prints "batch" at each commit,
 * "done" at the end. Usage: ingest-child.ts <dataDir>
 */
import { createAdapters } from './registry.js';
import { currentEnvironment } from '../paths.js';
import { AGENTS } from '../../../shared/model.js';
import { IndexWriteLoop } from './index-write-loop.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: ingest-child.ts <dataDir>');
const config = { agents: Object.fromEntries(AGENTS.map((a) => [a, { enabled: true, path: null }])) as Record<(typeof AGENTS)[number], { enabled: boolean; path: null }> };
const live = new IndexWriteLoop({ dataDir, adapters: createAdapters(config, currentEnvironment()), watch: false, groupCommit: { messages: 1, bytes: 1 } });
live.sync.on('sessions-changed', () => process.stdout.write('batch\n'));
await live.start();
process.stdout.write('done\n');
await live.close();
