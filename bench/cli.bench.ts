/**
 * Whole-process CLI benchmarks, side by side in one run: what a user (or an agent's shell) pays per
 * call, Node's start-up and every module included. The goals (issue #28) are ratios to peers
 * measured in the same run: ccusage 20.0.24 `session --json --offline` re-parsing the same files,
 * a bare `node -e 0`, and a plain read + JSON.parse of the same files. Baton's commands run the
 * compiled build (built here when stale, as `npm install` does) two ways: the fast path
 * (`node bin/baton.mjs`, what an `npm link`ed `baton` runs) and `npx baton` (npm's start-up on top).
 * Runs alternate between the commands so a busy moment of the shared machine hits them all alike.
 * The home holds the corpus's Claude Code and Codex stores only (what ccusage and the issue measure).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAgentCli } from '../testing/agents/agent-clis.js';
import { goalRow, type BenchContext, type BenchRow } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baton = path.join(root, 'bin', 'baton.mjs');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);
const COLD_RUNS = 3;
const NPX_RUNS = 3;
/** A word the generated corpus uses throughout (bench/corpus.ts WORDS). */
const SEARCH_WORD = 'function';

// Reads every JSONL file under the given roots and JSON.parses each line: the least any tool that
// indexes these files must do, as a whole process like the others.
const READ_PARSE = `
const fs = require('node:fs'); const path = require('node:path');
let lines = 0;
function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
  const f = path.join(d, e.name);
  if (e.isDirectory()) walk(f);
  else if (e.name.endsWith('.jsonl')) for (const l of fs.readFileSync(f, 'utf8').split('\\n')) if (l) { JSON.parse(l); lines++; }
} }
for (const r of process.argv.slice(1)) walk(r);
if (!lines) process.exit(2);`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Cmd {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Runs before each timed run, untimed (e.g. remove the index for a cold run). */
  before?: () => void;
}

function timeRun(c: Cmd): number {
  c.before?.();
  const started = process.hrtime.bigint();
  const r = spawnSync(c.cmd, c.args, { env: c.env, cwd: c.cwd ?? root, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${path.basename(c.cmd)} ${c.args.join(' ')} exited with ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return ms;
}

/** Builds dist/ when it is not current, so the rows measure what an installed Baton runs (never tsx). */
function ensureBuilt(log: (l: string) => void): void {
  const check = `Promise.all([import('${path.join(root, 'bin', 'build-stamp.mjs')}'), import('${path.join(root, 'bin', 'cli-bundle-inputs.mjs')}')]).then(([s, b]) => process.exit(s.compiledIsCurrent(${JSON.stringify(root)}) && b.bundleIsCurrent(${JSON.stringify(root)}) ? 0 : 3))`;
  const r = spawnSync(process.execPath, ['-e', check], { stdio: 'ignore' });
  if (r.status === 0) return;
  log('bench cli: building dist/ (npm run build:cli)');
  const b = spawnSync('npm', ['run', 'build:cli'], { cwd: root, stdio: 'ignore' });
  if (b.status !== 0) throw new Error('npm run build:cli failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startServe(env: NodeJS.ProcessEnv): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [baton, 'serve', '--port', String(await freePort())], { env, stdio: ['ignore', 'ignore', 'ignore'] });
  const dataDir = env.BATON_HOME!;
  const token = () => fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
  const deadline = Date.now() + 300_000;
  // Wait until it has written server.json and reports a current, watching index.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`baton serve exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('baton serve did not become current within 300 s');
    try {
      const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { url: string };
      const res = await fetch(`${info.url}/api/health`, { method: 'POST', headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' }, body: '{}' });
      const health = (await res.json()) as { index?: { phase?: string } };
      if (health.index?.phase === 'watching') break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Times every command RUNS times, interleaved; medians in ms by key. */
function measure(commands: Record<string, Cmd>, runs: number): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(commands)) times[k]!.push(timeRun(c));
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
}

/**
 * Times `index` RUNS times with `n` store files changed before each run (an agent appending: each
 * gets its own last line again), for n = 1 and 100. The corpus is shared and cached, so every file
 * is cut back to its size and mtime afterwards; the index then sees those files shrink and re-reads
 * them, which the next runs of this bench (a fresh Baton home) never notice.
 */
function changedFilesRuns(home: string, index: Cmd): [number, number][] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith('.jsonl')) files.push(f);
    }
  };
  for (const store of [path.join(home, '.claude', 'projects'), path.join(home, '.codex', 'sessions')]) walk(store);
  // Spread over both stores and many folders; the big session stays out (its last line is not the point).
  const ordinary = files.filter((f) => fs.statSync(f).size < 16 * 2 ** 20);
  const picked = ordinary.filter((_, i) => i % Math.max(1, Math.floor(ordinary.length / 100)) === 0).slice(0, 100);
  const originals = new Map(picked.map((f) => [f, fs.statSync(f)]));
  const lastLine = (f: string) => {
    const text = fs.readFileSync(f, 'utf8').trimEnd();
    return `${text.slice(text.lastIndexOf('\n') + 1)}\n`;
  };
  try {
    return [1, 100].map((n) => {
      const lines = picked.slice(0, n).map((f) => [f, lastLine(f)] as const);
      const ms = measure({ [n]: { ...index, before: () => lines.forEach(([f, line]) => fs.appendFileSync(f, line)) } }, RUNS)[n]!;
      return [n, ms];
    });
  } finally {
    for (const [f, st] of originals) {
      fs.truncateSync(f, st.size);
      fs.utimesSync(f, st.atime, st.mtime);
    }
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  // Whole processes over a smoke corpus measure nothing but start-up noise, and building dist/ from a
  // test run would swap the JavaScript under the other tests' feet.
  if (ctx.scale < 0.01) return [goalRow('cli', 'whole-process CLI rows skipped below BENCH_SCALE 0.01', 0, '', null)];
  ensureBuilt(ctx.log);
  const g = 'cli';
  const corpus = ctx.corpus();
  // Claude Code and Codex only: what ccusage reads and the figures are about.
  const home = ctx.scratch('cli-home');
  for (const store of ['.claude', '.codex']) fs.symlinkSync(path.join(corpus.home, store), path.join(home, store));
  const batonHome = ctx.scratch('cli-baton-home');
  const env = { ...ctx.env(), HOME: home, BATON_HOME: batonHome };
  const local = { ...env, BATON_NO_SERVER: '1' };
  const node = process.execPath;
  const files = `${corpus.files.claude + corpus.files.codex} Claude/Codex files, ${((corpus.bytes.claude + corpus.bytes.codex) / 2 ** 20).toFixed(0)} MB`;
  const ccusage = await ensureAgentCli('ccusage');
  const rows: BenchRow[] = [];

  // Cold index against a plain read + parse of the same files (own data dir, emptied before each run).
  const coldHome = ctx.scratch('cli-cold-baton-home');
  const cold = measure(
    {
      readParse: { cmd: node, args: ['-e', READ_PARSE, path.join(home, '.claude', 'projects'), path.join(home, '.codex', 'sessions')], env },
      cold: {
        cmd: node,
        args: [baton, 'index'],
        env: { ...local, BATON_HOME: coldHome },
        before: () => {
          fs.rmSync(coldHome, { recursive: true, force: true });
          fs.mkdirSync(coldHome, { recursive: true });
        },
      },
    },
    COLD_RUNS,
  );
  // The index every row below answers from: current before the first timed run.
  timeRun({ cmd: node, args: [baton, 'index'], env: local });

  const npx = (args: string[], e: NodeJS.ProcessEnv): Cmd => ({ cmd: 'npx', args: ['--no-install', 'baton', ...args], env: e, cwd: root });
  const commands: Record<string, Cmd> = {
    node: { cmd: node, args: ['-e', '0'], env },
    help: { cmd: node, args: [baton, '--help'], env },
    list: { cmd: node, args: [baton, 'list', '--json'], env: local },
    search: { cmd: node, args: [baton, 'search', SEARCH_WORD, '--json'], env: local },
    brief: { cmd: node, args: [baton, 'brief', '--last'], env: local },
    usage: { cmd: node, args: [baton, 'usage', '--by', 'session', '--json'], env: local },
    index: { cmd: node, args: [baton, 'index'], env: local },
  };
  if (ccusage.ok) commands.ccusage = { cmd: ccusage.bin, args: ['session', '--json', '--offline'], env };
  const m = measure(commands, RUNS);
  // npm's own start-up walks the dependency tree (seconds): fewer runs, same medians.
  const n = measure({ help: npx(['--help'], env), list: npx(['list', '--json'], local) }, NPX_RUNS);

  // Warm index with 1 and 100 changed files beside the 0 above: its cost follows what changed.
  const changed = changedFilesRuns(corpus.home, { cmd: node, args: [baton, 'index'], env: local });

  const serve = await startServe(env);
  let s: Record<string, number>;
  try {
    const viaServe: Record<string, Cmd> = {
      list: { cmd: node, args: [baton, 'list', '--json'], env },
      search: { cmd: node, args: [baton, 'search', SEARCH_WORD, '--json'], env },
      brief: { cmd: node, args: [baton, 'brief', '--last'], env },
      // The running Baton catches up (its /sync pass) and the command reports it.
      index: { cmd: node, args: [baton, 'index'], env },
      usage: { cmd: node, args: [baton, 'usage', '--by', 'session', '--json'], env },
    };
    if (ccusage.ok) viaServe.ccusage = commands.ccusage!;
    s = measure(viaServe, RUNS);
  } finally {
    await serve.stop();
  }

  const peer = ccusage.ok ? m.ccusage! : null;
  const vsPeer = (name: string, ms: number, peerMs: number | null, note: string) => {
    if (peerMs === null) return;
    rows.push(goalRow(g, `${name} / ccusage`, ratio(ms, peerMs), '×', { op: '<', target: 0.25 }, `${Math.round(ms)} vs ${Math.round(peerMs)} ms; ${note}`));
  };
  rows.push(goalRow(g, 'node -e 0 (bare start)', m.node!, 'ms', null, `median of ${RUNS}`));
  rows.push(goalRow(g, 'baton --help / node -e 0', ratio(m.help!, m.node!), '×', { op: '<', target: 2 }, `${Math.round(m.help!)} vs ${Math.round(m.node!)} ms`));
  vsPeer('baton list --json (own index, current)', m.list!, peer, files);
  vsPeer(`baton search ${SEARCH_WORD} --json (own index)`, m.search!, peer, 'index current');
  vsPeer('baton list --json (asking baton serve)', s.list!, s.ccusage ?? null, 'serve watching');
  vsPeer(`baton search ${SEARCH_WORD} --json (asking baton serve)`, s.search!, s.ccusage ?? null, 'serve watching');
  rows.push(goalRow(g, 'baton brief --last (own index)', m.brief!, 'ms', { op: '<', target: 300 }, 'whole process'));
  rows.push(goalRow(g, 'baton brief --last (baton serve running)', s.brief!, 'ms', { op: '<', target: 300 }, 'whole process'));
  rows.push(goalRow(g, 'baton index (warm, nothing changed)', m.index!, 'ms', { op: '<', target: 300 }, `${files}; freshness: one stat per file`));
  rows.push(goalRow(g, 'baton index (baton serve running, nothing changed)', s.index!, 'ms', { op: '<', target: 300 }, 'the running Baton runs the stat pass'));
  for (const [n, ms] of changed) {
    rows.push(goalRow(g, `baton index (warm, ${n} changed file${n === 1 ? '' : 's'})`, ms, 'ms', null, `one line appended to each, median of ${RUNS}; stat of every file as above`));
  }
  rows.push(goalRow(g, 'cold baton index / read + JSON.parse', ratio(cold.cold!, cold.readParse!), '×', { op: '<', target: 1.2 }, `${Math.round(cold.cold!)} vs ${Math.round(cold.readParse!)} ms, median of ${COLD_RUNS}`));
  rows.push(goalRow(g, 'baton usage --by session --json (own index)', m.usage!, 'ms', peer === null ? null : { op: '<', target: Math.round(peer) }, 'no slower than ccusage'));
  rows.push(goalRow(g, 'baton usage --by session --json (baton serve running)', s.usage!, 'ms', peer === null ? null : { op: '<', target: Math.round(peer) }, 'no slower than ccusage'));
  rows.push(goalRow(g, 'npx baton --help', n.help!, 'ms', null, 'npm start-up included'));
  rows.push(goalRow(g, 'npx baton list --json', n.list!, 'ms', null, `vs ${Math.round(m.list!)} ms through node bin/baton.mjs`));
  if (peer !== null) rows.push(goalRow(g, 'ccusage session --json --offline (peer)', peer, 'ms', null, `ccusage ${ccusage.ok ? ccusage.version : ''} over the same home`));
  else rows.push(goalRow(g, 'ccusage (peer) not run', 0, 'ms', null, ccusage.ok ? '' : ccusage.skip));
  return rows;
}
