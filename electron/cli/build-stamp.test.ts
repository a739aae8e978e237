// `bin/baton.mjs` runs dist/ only while it is a build of the sources as they are now.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/fixture-home.js';

const stampModule = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/build-stamp.mjs')).href;
type StampModule = { compiledIsCurrent(root: string): boolean; writeStamp(root: string): void };

describe('build stamp', () => {
  const tmp = makeTempDir('baton-stamp-');
  afterAll(() => tmp.cleanup());

  const touch = (rel: string, at: Date) => {
    const file = path.join(tmp.dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, '');
    fs.utimesSync(file, at, at);
  };

  it('is stale without a stamp, current after one, stale again once a source changes (tests do not count)', async () => {
    const { compiledIsCurrent, writeStamp } = (await import(stampModule)) as StampModule;
    const past = new Date(Date.now() - 60_000);
    touch('electron/cli/main.ts', past);
    touch('shared/model.ts', past);
    expect(compiledIsCurrent(tmp.dir)).toBe(false);
    fs.mkdirSync(path.join(tmp.dir, 'dist'), { recursive: true });
    writeStamp(tmp.dir);
    expect(compiledIsCurrent(tmp.dir)).toBe(true);
    touch('electron/core/x.test.ts', new Date(Date.now() + 60_000));
    expect(compiledIsCurrent(tmp.dir)).toBe(true);
    touch('shared/model.ts', new Date(Date.now() + 60_000));
    expect(compiledIsCurrent(tmp.dir)).toBe(false);
  });
});
