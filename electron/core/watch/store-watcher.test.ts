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

describe('StoreWatcher before any store exists', () => {
  it('starts with no root on disk, and reports a root created later within about a second', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-watch-none-'));
    const root = path.join(dir, '.qwen');
    const reports: string[][] = [];
    const watcher = new StoreWatcher([root], { debounceMs: 5, onChange: (paths) => reports.push(paths) });
    try {
      await watcher.start(); // used to wait forever for chokidar's 'ready'
      // An agent installed while Baton runs: its store and first session appear at once.
      const file = path.join(root, 'projects', 'p', 'chats', 's.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{"n":1}\n');
      await until('the new root reported', () => reports.some((r) => r.includes(root)));
      // Once chokidar has scanned it, later writes below it are reported file by file.
      await until('a write under the new root reported', () => {
        fs.appendFileSync(file, '{"n":2}\n');
        return reports.some((r) => r.includes(file));
      });
    } finally {
      await watcher.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
