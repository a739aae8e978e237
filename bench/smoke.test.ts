import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/fixture-home.js';
import { runBench } from './run.js';

describe('bench harness (tiny corpus, no timing asserts)', () => {
  const tmp = makeTempDir('baton-bench-');
  afterAll(() => tmp.cleanup());

  it('discovers the bench modules, runs them and writes results', async () => {
    const resultsFile = path.join(tmp.dir, 'latest.json');
    const rows = await runBench({ scale: 0.002, resultsFile, corpusRoot: path.join(tmp.dir, 'corpus'), scratchRoot: path.join(tmp.dir, 'scratch') });
    const names = rows.map((r) => r.name);
    expect(names.some((n) => n.startsWith('cold index'))).toBe(true);
    expect(names.some((n) => n.startsWith('search p95'))).toBe(true);
    expect(rows.every((r) => Number.isFinite(r.value))).toBe(true);
    const saved = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { rows: unknown[]; errors: unknown[] };
    expect(saved.errors).toEqual([]);
    expect(saved.rows).toHaveLength(rows.length);
  }, 180_000);
});
