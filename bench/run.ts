/**
 * `npm run bench [-- <filter>]`: runs every bench/*.bench.ts module (or those whose name contains
 * the filter), prints one table and writes bench/results/latest.json. BENCH_SCALE shrinks the corpus.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDir } from './corpus.js';
import { createContext, formatRows, type BenchModule, type BenchRow } from './harness.js';

export async function runBench(opts: { scale: number; filter?: string; resultsFile?: string; corpusRoot?: string; scratchRoot?: string }): Promise<BenchRow[]> {
  const ctx = createContext({ scale: opts.scale, corpusRoot: opts.corpusRoot, scratchRoot: opts.scratchRoot });
  const modules = fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => !opts.filter || f.includes(opts.filter))
    .sort();
  const rows: BenchRow[] = [];
  const errors: { module: string; error: string }[] = [];
  for (const file of modules) {
    ctx.log(`bench: ${file}`);
    try {
      const mod = (await import(pathToFileURL(path.join(benchDir, file)).href)) as Partial<BenchModule>;
      if (typeof mod.run !== 'function') throw new Error('does not export run(ctx)');
      rows.push(...(await mod.run(ctx)));
    } catch (err) {
      errors.push({ module: file, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      ctx.log(`bench: ${file} failed: ${String(err)}`);
    }
  }
  const result = {
    at: new Date().toISOString(),
    scale: opts.scale,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', memGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: process.platform },
    corpus: opts.scale ? ctx.corpus() : null,
    rows,
    errors,
  };
  const out = opts.resultsFile ?? path.join(benchDir, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  process.stdout.write(`${formatRows(rows)}\n\nresults: ${out}\n`);
  if (errors.length) process.stdout.write(`${errors.length} module(s) failed: ${errors.map((e) => e.module).join(', ')}\n`);
  return rows;
}

const isMain = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (isMain) {
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  if (!(scale > 0)) throw new Error(`BENCH_SCALE must be a positive number, got ${process.env.BENCH_SCALE}`);
  await runBench({ scale, filter: process.argv[2] });
}
