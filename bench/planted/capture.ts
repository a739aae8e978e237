/**
 * Captures the planted-facts scenario from the real agent CLIs: each of the 28 user turns of
 * scenario.ts is one run of the real Claude Code / Codex / OpenCode against the loopback mock LLM
 * (../shared/mock-llm), every run after the first resuming the same session (`claude -c`,
 * `codex exec resume --last`, `opencode run --continue`). `npm test` really runs in a throw-away
 * git repo and fails until turn 24. The agents' stores are copied to `captured/<agent>/home/`.
 * The mock answers with canned text and no todo lists or summaries, so only the facts stated in the
 * user's words are scored here. Usage: `npx tsx bench/planted/capture.ts [claude codex opencode]`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureAgentCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { TURNS } from './scenario.js';
import { PLANTED_DIR } from './paths.js';

type Captured = 'claude' | 'codex' | 'opencode';
/** Turn (1-based) from which `npm test` passes. */
const PASSING_FROM = 24;

function resumeArgs(agent: Captured, prompt: string): string[] {
  switch (agent) {
    case 'claude':
      return ['-c', ...promptArgs('claude', prompt)];
    case 'codex':
      return ['exec', 'resume', '--last', '--skip-git-repo-check', prompt];
    case 'opencode':
      return ['run', '--continue', prompt];
  }
}

/** Where each CLI keeps its sessions under HOME (SQLite stores with their -wal/-shm). */
const STORES: Record<Captured, string[]> = {
  claude: ['.claude/projects'],
  codex: ['.codex/sessions'],
  opencode: ['.local/share/opencode/opencode.db', '.local/share/opencode/opencode.db-wal', '.local/share/opencode/opencode.db-shm'],
};

function makeProject(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'invoice-export', version: '0.1.0', private: true, scripts: { test: 'node test.js', build: 'tsc' } }, null, 2) + '\n',
  );
  fs.writeFileSync(
    path.join(dir, 'test.js'),
    "const ok = require('fs').readFileSync(__dirname + '/status.txt', 'utf8').trim() === 'pass';\n" +
      "console.log(ok ? 'tests 6, pass 6, fail 0' : 'not ok 1 - writes the CSV header\\ntests 6, pass 5, fail 1');\nprocess.exit(ok ? 0 : 1);\n",
  );
  fs.writeFileSync(path.join(dir, 'status.txt'), 'fail\n');
  fs.writeFileSync(path.join(dir, 'src', 'export.ts'), 'export async function exportInvoices() {}\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'ana', GIT_AUTHOR_EMAIL: 'a@e', GIT_COMMITTER_NAME: 'ana', GIT_COMMITTER_EMAIL: 'a@e' } });
  git('init', '-q', '-b', 'feature/invoice-export');
  git('add', '.');
  git('commit', '-q', '-m', 'Initial');
}

async function capture(agent: Captured): Promise<void> {
  const cli = await ensureAgentCli(agent);
  if (!cli.ok) throw new Error(`${agent}: ${cli.skip}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-planted-${agent}-`));
  const mock = await startMockLlm({ dir: tmp });
  try {
    const home = path.join(tmp, 'home');
    const project = path.join(home, 'projects', 'invoice-export');
    makeProject(project);
    const env = agentEnv(agent, home, mock.url);
    for (const [i, turn] of TURNS.entries()) {
      const user = turn.find((s) => s.kind === 'user');
      if (!user || user.kind !== 'user') continue;
      if (i + 1 === PASSING_FROM) fs.writeFileSync(path.join(project, 'status.txt'), 'pass\n');
      const args = i === 0 ? promptArgs(agent, user.text) : resumeArgs(agent, user.text);
      const run = await runAgent({ bin: cli.bin, args, cwd: project, env, timeoutMs: 180_000 });
      if (run.timedOut || run.code !== 0) throw new Error(`${agent} turn ${i + 1} failed (${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
      process.stderr.write(`${agent} turn ${i + 1}/${TURNS.length} (${run.ms} ms)\n`);
    }
    const out = path.join(PLANTED_DIR, 'captured', agent, 'home');
    fs.rmSync(path.join(PLANTED_DIR, 'captured', agent), { recursive: true, force: true });
    for (const rel of STORES[agent]) {
      const from = path.join(home, rel);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(out, rel), { recursive: true });
    }
  } finally {
    await mock.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const wanted = (process.argv.slice(2).length ? process.argv.slice(2) : ['claude', 'codex', 'opencode']) as Captured[];
for (const agent of wanted) await capture(agent);
