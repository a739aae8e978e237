/**
 * Issue #25 item 5: a running agent rewrites its config while Baton edits it (Claude Code saves
 * ~/.claude.json many times a session). Baton's write must not undo the other program's change,
 * and the other program's write must not undo Baton's. Real processes writing real files.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import type { Environment } from '../paths.js';
import { mcpEndpoint } from './endpoint.js';
import { installMcp, uninstallMcp } from './mcp-entries/mcp-installer.js';
import { mcpConfigFile } from './config/config-locations.js';
import { changeConfig } from './config/config-change.js';
import { InstallRecords } from './config/install-record.js';
import { addJsonEntry, claudeFlavour, readJsonEntry, removeJsonEntry } from './config/edit-json.js';

const TOKEN = 'tok_concurrent_0123456789abcdefghijklmnop';
const endpoint = mcpEndpoint(8765, TOKEN);
let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir('baton-concurrent-');
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  dataDir = path.join(tmp.dir, 'baton');
  fs.mkdirSync(environment.home, { recursive: true });
});
afterEach(() => tmp.cleanup());

/** Another program's read-modify-write of the JSON file: sets `key` to `value`, atomically (temp + rename). */
const SET_KEY = `
const fs = require('node:fs');
const [file, key, value] = process.argv.slice(1);
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
data[key] = JSON.parse(value);
fs.writeFileSync(file + '.w.tmp', JSON.stringify(data, null, 2));
fs.renameSync(file + '.w.tmp', file);
`;

/**
 * Claude Code's way of saving ~/.claude.json, in a loop: take `<file>.lock` (mkdir), read, set
 * its own counter, write to a temp file and rename, release. It counts the saves of its own that
 * it finds undone when it reads again, and prints the last counter it wrote.
 */
const CLAUDE_LIKE = `
const fs = require('node:fs');
const [file, ms] = process.argv.slice(1);
const sleep = (n) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n);
const end = Date.now() + Number(ms);
let last = 0, lost = 0, lockWaits = 0;
while (Date.now() < end) {
  while (true) { try { fs.mkdirSync(file + '.lock'); break; } catch { lockWaits++; sleep(1); } }
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (last > 0 && data.counter !== last) lost++;
    data.counter = ++last;
    fs.writeFileSync(file + '.claude.tmp', JSON.stringify(data, null, 2));
    fs.renameSync(file + '.claude.tmp', file);
  } finally { fs.rmdirSync(file + '.lock'); }
  if (last === 1) process.stderr.write('started\\n');
  sleep(1 + Math.random() * 2);
}
process.stdout.write(JSON.stringify({ last, lost, lockWaits }));
`;

describe('a config another program writes while Baton edits it', () => {
  it("a change made between Baton's read and its write is kept: Baton redoes its edit on top", () => {
    const file = path.join(environment.home, 'settings.json');
    fs.writeFileSync(file, '{\n  "a": 1\n}\n');
    let calls = 0;
    const outcome = changeConfig({
      file,
      action: 'install',
      editor: {
        add: (text) => {
          // The first time Baton has read the file, another process rewrites it.
          if (calls++ === 0) execFileSync(process.execPath, ['-e', SET_KEY, file, 'theirs', '"kept"']);
          return addJsonEntry(claudeFlavour, text, endpoint, file);
        },
        remove: (text) => removeJsonEntry(claudeFlavour, text, endpoint.name, file),
        has: (text) => readJsonEntry(claudeFlavour, text, endpoint.name, file) !== undefined,
      },
      records: new InstallRecords(dataDir, 'records.json'),
      entry: 'test',
    });
    expect(outcome).toMatchObject({ ok: true, kind: 'written' });
    expect(calls).toBe(2);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(data).toMatchObject({ a: 1, theirs: 'kept', mcpServers: { baton: { url: endpoint.url } } });
    // One backup: the one of the attempt that found the file changed went with it.
    expect(fs.readdirSync(environment.home).filter((n) => n.includes('.bak-'))).toHaveLength(1);
  });

  it('a Claude Code saving ~/.claude.json in a loop loses no save, and Baton loses no entry', async () => {
    const file = mcpConfigFile('claude', environment);
    fs.writeFileSync(file, '{\n  "numStartups": 1\n}\n');
    const writer = spawn(process.execPath, ['-e', CLAUDE_LIKE, file, '1500'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    writer.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise<void>((resolve) => writer.stderr.once('data', () => resolve()));
    const options = { agent: 'claude' as const, endpoint, environment, dataDir };
    for (let i = 0; i < 10; i++) {
      expect(installMcp(options)[0]).toMatchObject({ ok: true });
      expect(uninstallMcp(options)[0]).toMatchObject({ ok: true });
    }
    expect(installMcp(options)[0]).toMatchObject({ ok: true, changed: true });
    const code = await new Promise<number | null>((resolve) => writer.on('exit', resolve));
    expect(code).toBe(0);
    const { last, lost } = JSON.parse(out) as { last: number; lost: number };
    expect(last).toBeGreaterThan(20);
    expect(lost).toBe(0);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(data.counter).toBe(last);
    expect(data).toMatchObject({ numStartups: 1, mcpServers: { baton: { url: endpoint.url } } });
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});
