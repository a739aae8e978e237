/**
 * Captures a real Claude Code session (the pinned CLI against the loopback mock LLM) in which the
 * one source file that changes, `src/billing/proration.py`, is edited by `sed -i` through the shell,
 * never by a file tool; the agent reads another file, then the session's own last `git status`
 * shows the change. The store is copied to `shell-edit/home/`: the Files-touched test briefs it.
 * Usage: `npx tsx bench/planted/capture-shell-edit.ts`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureAgentCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { PLANTED_DIR } from './paths.js';

export const SHELL_EDIT_PROMPTS = [
  'Prorated refunds are off by a day. Read `src/billing/invoice.py` first.',
  "Fix the off-by-one in the proration: run `sed -i 's|days_used = (end - start).days|days_used = (end - start).days + 1|' src/billing/proration.py`",
  'Now run `git status` and tell me what changed.',
];

function makeProject(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src', 'billing'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'billing', '__init__.py'), '');
  fs.writeFileSync(
    path.join(dir, 'src', 'billing', 'proration.py'),
    'def prorate(amount, start, end, period_days):\n    days_used = (end - start).days\n    return round(amount * days_used / period_days, 2)\n',
  );
  fs.writeFileSync(path.join(dir, 'src', 'billing', 'invoice.py'), 'from .proration import prorate\n\n\ndef refund(invoice, start, end):\n    return prorate(invoice.amount, start, end, 30)\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'ana', GIT_AUTHOR_EMAIL: 'a@e', GIT_COMMITTER_NAME: 'ana', GIT_COMMITTER_EMAIL: 'a@e' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env });
  git('init', '-q', '-b', 'fix/proration');
  git('add', '.');
  git('commit', '-q', '-m', 'Billing module');
}

async function capture(): Promise<void> {
  const cli = await ensureAgentCli('claude');
  if (!cli.ok) throw new Error(`claude: ${cli.skip}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-shell-edit-'));
  const mock = await startMockLlm({ dir: tmp });
  try {
    const home = path.join(tmp, 'home');
    const project = path.join(home, 'projects', 'billing');
    makeProject(project);
    const env = agentEnv('claude', home, mock.url);
    for (const [i, prompt] of SHELL_EDIT_PROMPTS.entries()) {
      const args = i === 0 ? promptArgs('claude', prompt) : ['-c', ...promptArgs('claude', prompt)];
      const run = await runAgent({ bin: cli.bin, args, cwd: project, env, timeoutMs: 180_000 });
      if (run.timedOut || run.code !== 0) throw new Error(`claude turn ${i + 1} failed (${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
    }
    // The edit must really have happened through the shell.
    const changed = fs.readFileSync(path.join(project, 'src', 'billing', 'proration.py'), 'utf8');
    if (!changed.includes('.days + 1')) throw new Error('sed -i did not change src/billing/proration.py');
    const out = path.join(PLANTED_DIR, 'shell-edit', 'home');
    fs.rmSync(out, { recursive: true, force: true });
    fs.cpSync(path.join(home, '.claude', 'projects'), path.join(out, '.claude', 'projects'), { recursive: true });
  } finally {
    await mock.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await capture();
