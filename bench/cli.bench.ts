/**
 * Whole-process CLI benchmarks, side by side in one run: what a user (or an agent's hook) pays per
 * call, Node's start-up and every module included. Baton's commands run the compiled dist/ (built
 * here when stale, as `npm install` does); the peer is ccusage 20.0.24 reading the same files.
 * Runs alternate between the commands so a busy moment of the shared machine hits them all alike.
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
const RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeRun(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return ms;
}

/** Builds dist/ when it is not current, so the rows measure what an installed Baton runs. */
function ensureBuilt(log: (l: string) => void): void {
  const r = spawnSync(process.execPath, ['-e', `import('${path.join(root, 'bin', 'build-stamp.mjs')}').then(m => process.exit(m.compiledIsCurrent(${JSON.stringify(root)}) ? 0 : 3))`], { stdio: 'ignore' });
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

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  // Whole processes over a smoke corpus measure nothing but start-up noise, and building dist/ from a
  // test run would swap the JavaScript under the other tests' feet.
  if (ctx.scale < 0.01) return [goalRow('cli', 'whole-process CLI rows skipped below BENCH_SCALE 0.01', 0, '', null)];
  ensureBuilt(ctx.log);
  const g = 'cli';
  const corpus = ctx.corpus();
  const env = { ...ctx.env(), BATON_HOME: ctx.scratch('cli-baton-home') };
  const local = { ...env, BATON_NO_SERVER: '1' };
  const node = process.execPath;
  // Warm the index first: every row below is "index already current".
  timeRun(node, [baton, 'index'], local);

  const ccusage = await ensureAgentCli('ccusage');
  const commands: Record<string, { cmd: string; args: string[]; env: NodeJS.ProcessEnv }> = {
    node: { cmd: node, args: ['-e', '0'], env },
    help: { cmd: node, args: [baton, '--help'], env },
    list: { cmd: node, args: [baton, 'list', '--json'], env: local },
    usage: { cmd: node, args: [baton, 'usage', '--by', 'session', '--json'], env: local },
    index: { cmd: node, args: [baton, 'index'], env: local },
  };
  if (ccusage.ok) commands.ccusage = { cmd: ccusage.bin, args: ['session', '--json', '--offline'], env };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) for (const [k, c] of Object.entries(commands)) times[k]!.push(timeRun(c.cmd, c.args, c.env));

  const serve = await startServe(env);
  const viaServer: number[] = [];
  const ccusageBeside: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      viaServer.push(timeRun(node, [baton, 'list', '--json'], env));
      if (ccusage.ok) ccusageBeside.push(timeRun(ccusage.bin, ['session', '--json', '--offline'], env));
    }
  } finally {
    await serve.stop();
  }

  const m = (k: string) => median(times[k]!);
  const peer = ccusage.ok ? m('ccusage') : null;
  const files = `${corpus.files.claude + corpus.files.codex} Claude/Codex files, ${((corpus.bytes.claude + corpus.bytes.codex) / 2 ** 20).toFixed(0)} MB`;
  const rows: BenchRow[] = [
    goalRow(g, 'node -e 0 (bare start)', m('node'), 'ms', null, `median of ${RUNS}`),
    goalRow(g, 'baton --help', m('help'), 'ms', { op: '<', target: Math.round(4 * m('node')) }, '≤ 4× a bare Node start'),
    goalRow(g, 'baton list --json (own index, current)', m('list'), 'ms', peer === null ? null : { op: '<', target: Math.round(peer) }, `no slower than ccusage session --json --offline; ${files}`),
    goalRow(g, 'baton usage --by session --json (own index)', m('usage'), 'ms', peer === null ? null : { op: '<', target: Math.round(peer) }, 'no slower than ccusage session --json --offline'),
    goalRow(g, 'baton list --json (asking the running serve)', median(viaServer), 'ms', ccusageBeside.length ? { op: '<', target: Math.round(median(ccusageBeside)) } : null, 'serve watching, index current'),
    goalRow(g, 'baton index (warm, nothing changed)', m('index'), 'ms', { op: '<', target: 1000 }, files),
  ];
  if (peer !== null) rows.push(goalRow(g, 'ccusage session --json --offline (peer)', peer, 'ms', null, `ccusage ${ccusage.ok ? ccusage.version : ''} over the same home`));
  else rows.push(goalRow(g, 'ccusage (peer) not run', 0, 'ms', null, ccusage.ok ? '' : ccusage.skip));
  return rows;
}
