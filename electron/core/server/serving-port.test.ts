import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/fixture-home.js';
import { clearServingRecord, servingFile, servingPort, writeServingRecord } from './serving-port.js';

let tmp: { dir: string; cleanup(): void };
beforeEach(() => (tmp = makeTempDir('baton-serving-')));
afterEach(() => tmp.cleanup());

describe('the serving-port record', () => {
  it('tells the port a live Baton listens on, and nothing once it stopped', () => {
    expect(servingPort(tmp.dir)).toBeNull();
    writeServingRecord(tmp.dir, 28765);
    expect(servingPort(tmp.dir)).toBe(28765);
    clearServingRecord(tmp.dir);
    expect(fs.existsSync(servingFile(tmp.dir))).toBe(false);
  });

  it('ignores a record left by a process that died', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(servingFile(tmp.dir), JSON.stringify({ port: 28765, pid: Number(dead) }));
    expect(servingPort(tmp.dir)).toBeNull();
  });
});
