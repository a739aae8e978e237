/**
 * The benchmark harness contract. Any `bench/*.bench.ts` exporting `run(ctx)` is discovered by
 * run.ts; it returns rows that land in one table and in bench/results/latest.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { benchDir, corpusSpec, ensureCorpus, type CorpusManifest } from './corpus.js';

export interface BenchRow {
  /** Module or area, e.g. "index". */
  group: string;
  name: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "≥ 150". */
  goal?: string;
  /** Whether the goal was met; null when there is no goal. */
  pass?: boolean | null;
  note?: string;
}

export interface BenchContext {
  /** BENCH_SCALE: 1 = the full corpus (≥ 1 GB JSONL, ≥ 1 M messages); smaller for smoke runs. */
  scale: number;
  /** The synthetic agent home (generated on first use, cached under bench/.corpus/). */
  corpus(): CorpusManifest;
  /** Environment whose HOME is the corpus home, agents' env vars cleared. */
  env(): NodeJS.ProcessEnv;
  /** A fresh scratch directory for this run. */
  scratch(name: string): string;
  log(line: string): void;
  /** Runs a TypeScript file in a child Node process (tsx) and returns its last stdout line parsed as JSON. */
  runChild<T>(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<T>;
}

export interface BenchModule {
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

export function goalRow(group: string, name: string, value: number, unit: string, goal: { op: '<' | '≥'; target: number } | null, note?: string): BenchRow {
  const pass = goal ? (goal.op === '<' ? value < goal.target : value >= goal.target) : null;
  return { group, name, value: Math.round(value * 100) / 100, unit, goal: goal ? `${goal.op} ${goal.target}` : undefined, pass, note };
}

export function createContext(opts: { scale: number; corpusRoot?: string; scratchRoot?: string; log?: (l: string) => void }): BenchContext {
  let manifest: CorpusManifest | null = null;
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const scratchRoot = opts.scratchRoot ?? path.join(benchDir, '.corpus', `scale-${opts.scale}-scratch`);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const ctx: BenchContext = {
    scale: opts.scale,
    corpus() {
      manifest ??= ensureCorpus(corpusSpec(opts.scale), { root: opts.corpusRoot, log });
      return manifest;
    },
    env() {
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: ctx.corpus().home, BATON_HOME: path.join(scratchRoot, 'baton-home') };
      for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'CODEX_SQLITE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME']) delete env[k];
      return env;
    },
    scratch(name) {
      const dir = path.join(scratchRoot, name);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    log,
    runChild<T>(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<T> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', tsx, file, ...args], { env: env ?? ctx.env(), stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('error', reject);
        child.on('exit', (code) => {
          const last = out.trim().split('\n').at(-1) ?? '';
          if (code !== 0) return reject(new Error(`${path.basename(file)} exited with ${code}`));
          try {
            resolve(JSON.parse(last) as T);
          } catch {
            reject(new Error(`${path.basename(file)} printed no JSON result: ${last.slice(0, 200)}`));
          }
        });
      });
    },
  };
  return ctx;
}

export function formatRows(rows: BenchRow[]): string {
  const head = ['group', 'metric', 'value', 'unit', 'goal', 'ok'];
  const cells = rows.map((r) => [r.group ?? '', r.name ?? '', String(r.value ?? ''), r.unit ?? '', r.goal ?? '', r.pass === null || r.pass === undefined ? '' : r.pass ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 2 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
