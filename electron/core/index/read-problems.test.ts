/**
 * How remembered problems follow a file through incremental reads (real JSONL files, real index.db):
 * bad lines appended later add to the file's count, a rewritten file starts over, a clean rewrite
 * clears them, and a database that cannot be read is retried at every pass until it reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesDir, makeTempDir } from '../../../testing/fixture-home.js';
import { createClaudeAdapter } from '../sources/claude/claude-adapter.js';
import { createOpenCodeAdapter } from '../sources/opencode/index.js';
import { openIndexForWriting } from './index-db.js';
import { StoreSync } from '../ingest/store-sync.js';
import { IndexWriter } from './index-writer.js';
import { readSourceProblems } from './read-problems.js';

const SID = '12345678-1234-4234-8234-123456789abc';
const prompt = (text: string) =>
  `${JSON.stringify({ type: 'user', uuid: `u-${text}`, sessionId: SID, cwd: '/w', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: text } })}\n`;

describe('problems remembered per file', () => {
  let tmp: { dir: string; cleanup(): void };
  let file: string;
  let sync: StoreSync;
  let db: ReturnType<typeof openIndexForWriting>;
  const problems = () => readSourceProblems(db).get('claude')?.problems ?? [];

  beforeEach(() => {
    tmp = makeTempDir('baton-problems-');
    file = path.join(tmp.dir, 'claude', 'projects', 'p', `${SID}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    db = openIndexForWriting(path.join(tmp.dir, 'data'));
    sync = new StoreSync(new IndexWriter(db), [createClaudeAdapter([path.join(tmp.dir, 'claude')])]);
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  it('appended bad lines add to the count; the first one stays named; a clean rewrite clears it', async () => {
    fs.writeFileSync(file, `${prompt('one')}{"broken": \n`);
    await sync.syncAll();
    expect(problems()).toEqual([expect.objectContaining({ file, kind: 'malformed_lines', count: 1, line: 2, offset: Buffer.byteLength(prompt('one')) })]);

    fs.appendFileSync(file, `${prompt('two')}[1, 2]\n`);
    await sync.syncAll();
    expect(problems()).toEqual([expect.objectContaining({ kind: 'malformed_lines', count: 2, line: 2 })]);

    // Rewritten in place (same size would do too): read from the start, the count starts over.
    fs.writeFileSync(file, `${prompt('uno')}${prompt('dos')}`);
    await sync.syncAll();
    expect(problems()).toEqual([]);
  });

  it('a database that cannot be read stays listed, is tried again at every pass, and clears once it reads', async () => {
    const store = path.join(tmp.dir, 'opencode');
    fs.mkdirSync(store);
    const dbFile = path.join(store, 'opencode.db');
    fs.writeFileSync(dbFile, Buffer.alloc(8192, 7));
    const ocSync = new StoreSync(new IndexWriter(db), [createOpenCodeAdapter([store])]);
    const opencode = () => readSourceProblems(db).get('opencode');

    await ocSync.syncAll();
    expect(opencode()).toEqual({ unreadable: true, problems: [expect.objectContaining({ file: dbFile, kind: 'unreadable', message: 'file is not a database (no SQLite header)' })] });
    // Nothing changed on disk, yet it is read again (a permission fixed by chmod changes no mtime).
    expect((await ocSync.syncAll()).unitsRead).toBe(1);

    fs.rmSync(dbFile);
    for (const f of ['opencode.db', 'opencode.db-wal', 'opencode.db-shm']) fs.copyFileSync(path.join(fixturesDir(), 'home/.local/share/opencode', f), path.join(store, f));
    await ocSync.syncAll();
    expect(opencode()).toBeUndefined();
    expect((await ocSync.syncAll()).unitsRead).toBe(0); // read: skipped while unchanged, as before
  });
});
