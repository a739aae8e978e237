import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_DEBOUNCE_MS, StoreWatcher } from './store-watcher.js';

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('StoreWatcher on a real directory', () => {
  let dir: string;
  let file: string;
  let watcher: StoreWatcher;
  let reports: string[][];
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-watch-'));
    file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(file, '{"n":1}\n');
    reports = [];
    // Asks for less than chokidar's change throttle: the watcher must not report inside it.
    watcher = new StoreWatcher([dir], { debounceMs: 5, onChange: (paths) => reports.push(paths) });
    await watcher.start();
  });
  afterEach(async () => {
    await watcher.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const reportsOf = (p: string) => reports.filter((r) => r.includes(p)).length;

  it('coalesces a burst of appends into one report and ignores non-store files', async () => {
    const started = Date.now();
    for (let i = 2; i <= 5; i++) fs.appendFileSync(file, `{"n":${i}}\n`);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a store file');
    await until('report', () => reportsOf(file) > 0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(MIN_DEBOUNCE_MS);
    await new Promise((r) => setTimeout(r, MIN_DEBOUNCE_MS * 3));
    expect(reports).toEqual([[file]]);
  });

  it('reports a file replaced by rename right after its previous change was reported', async () => {
    fs.appendFileSync(file, '{"n":2}\n');
    await until('append reported', () => reportsOf(file) === 1);
    // Immediately, as a consumer that just read the append would see it: an atomic rewrite.
    fs.writeFileSync(`${file}.tmp`, '{"n":"replaced"}\n');
    fs.renameSync(`${file}.tmp`, file);
    await until('replace reported', () => reportsOf(file) === 2);
  });

  it('reports a deletion', async () => {
    fs.rmSync(file);
    await until('unlink reported', () => reportsOf(file) > 0);
  });
});

describe('StoreWatcher: stores that do not exist yet', () => {
  let dir: string;
  let watcher: StoreWatcher | null;
  let reports: string[][];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-watch-late-'));
    reports = [];
    watcher = null;
  });
  afterEach(async () => {
    await watcher?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const reported = (p: string) => reports.some((r) => r.includes(p));
  const startOn = async (roots: string[]) => {
    watcher = new StoreWatcher(roots, { debounceMs: 5, onChange: (paths) => reports.push(paths) });
    // chokidar emits no 'ready' for an empty path list: start() must not wait for it.
    await watcher.start();
  };

  it('starts with no store at all, then watches a store created levels below its nearest existing ancestor', async () => {
    const root = path.join(dir, 'home', '.local', 'share', 'opencode');
    await startOn([root, path.join(dir, 'home', '.codex')]);
    fs.mkdirSync(path.join(dir, 'home', '.local'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'home', '.local', 'share'));
    fs.mkdirSync(root);
    const db = path.join(root, 'opencode.db');
    fs.writeFileSync(db, 'x');
    await until('the new store file reported', () => reported(db));
    // Once the store is watched, later changes in it are reported as for any store.
    const nested = path.join(root, 'storage', 'session', 'p', 'ses_1.json');
    fs.mkdirSync(path.dirname(nested), { recursive: true });
    fs.writeFileSync(nested, '{}');
    await until('a file written later in the new store', () => reported(nested));
  });

  it('reports what was in a store directory made in one go (mkdir -p, files at once)', async () => {
    const root = path.join(dir, '.claude', 'projects');
    await startOn([root]);
    const file = path.join(root, '-tmp-x', 'abc.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{}\n');
    await until('the file of the new store', () => reported(file));
  });

  it('waits again for a store that was deleted, and watches it when it comes back', async () => {
    const root = path.join(dir, 'store');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'old.jsonl'), '{}\n');
    await startOn([root]);
    fs.rmSync(root, { recursive: true });
    await until('the deletion reported', () => reported(root));
    fs.mkdirSync(root);
    const file = path.join(root, 'again.jsonl');
    fs.writeFileSync(file, '{}\n');
    await until('a file of the store made anew', () => reported(file));
  });
});
