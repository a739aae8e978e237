/**
 * "Open in <agent>" for the agents that take a pasted brief: the command Baton builds
 * (terminal/agent-command.ts: `copilot -i "$(cat brief.md)"`, `kilo --prompt …`, `cn …`) is run by a
 * real shell in a real terminal (tmux), and the real CLI's interactive session sends the brief to
 * the model (the scripted mock's log) as its first prompt, with nobody typing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPromptCommand } from '../../electron/core/terminal/agent-command.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, type RealAgent } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { hasTmux, startTui, type Tui } from '../../testing/agents/tmux-tui.js';
import { stopClineHub } from '../../testing/agents/homes/cline.js';

const TOKEN = 'okapiverdigris';
const BRIEF = `# Handoff brief: tidy the importer\n\n## Original goal\n\n> Tidy the CSV importer (${TOKEN}).\n\n## Instructions\n\n1. Read the goal.\n`;

interface OpenCase {
  agent: RealAgent;
  cli: Parameters<typeof ensureAgentCli>[0];
  /** What a user who has run the agent before already has (onboarding done). */
  prepare?: (home: string) => void;
  /** A first-time question the agent asks in a new folder, and the answer a user gives once. */
  asks?: { screen: RegExp; keys: string[] };
  /** What the agent leaves running after its terminal closes (Cline's hub daemon), stopped by pid. */
  cleanup?: (home: string) => void;
}

const AGENTS: OpenCase[] = [
  // Copilot CLI asks once per folder whether to trust it; "Yes" (Enter), then the prompt runs.
  { agent: 'copilot', cli: 'copilot', asks: { screen: /Do you trust the files in this folder\?/, keys: ['Enter'] } },
  { agent: 'kilo', cli: 'kilo' },
  // cn's interactive start asks for an Anthropic key until its onboarding is marked complete.
  { agent: 'continue', cli: 'continue', prepare: (home) => fs.writeFileSync(path.join(home, '.continue', '.onboarding_complete'), new Date().toISOString()) },
  { agent: 'cline', cli: 'cline', cleanup: stopClineHub },
  // Not here: Factory Droid 0.225's interactive CLI asks for a Factory login before anything (its BYOK
  // models run without one only in `droid exec`), so `droid "<brief>"` cannot be run offline; Letta
  // Code takes no first prompt (it opens bare and the brief is pasted: open-in-agent.test.ts).
];

/** The pids of processes whose environment has this throw-away HOME (nothing else on the machine does). */
function processesOf(home: string): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) pids.push(Number(pid));
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return pids;
}

/** Waits up to 10 s for the agent's processes to end, then kills what is left, by pid. */
async function processesGone(home: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let left = processesOf(home); left.length > 0; left = processesOf(home)) {
    if (Date.now() > deadline) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Open in an agent: the real CLI starts with the brief as its first prompt', () => {
  let tmp: string;
  let mock: MockLlm;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-open-'));
    mock = await startMockLlm({ dir: tmp });
  });
  afterAll(async () => {
    await mock?.stop();
    if (tmp && !process.env.BATON_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const { agent, cli, prepare, asks, cleanup } of AGENTS) {
    it(`${agent}: the brief reaches the model`, async () => {
      const found = await ensureAgentCli(cli);
      requireCli(found);
      expect(hasTmux(), 'tmux plays the terminal').toBe(true);
      const home = path.join(tmp, agent, 'home');
      const project = path.join(tmp, agent, 'project');
      fs.mkdirSync(home, { recursive: true });
      fs.mkdirSync(project, { recursive: true });
      execFileSync('git', ['init', '-q'], { cwd: project });
      const briefFile = path.join(tmp, agent, 'brief.md');
      fs.writeFileSync(briefFile, BRIEF);
      const env = { ...agentEnv(agent, home, mock.url), PATH: `${path.dirname(found.bin)}:${process.env.PATH}` };
      prepare?.(home);
      const before = mock.requests().length;
      let tui: Tui | null = null;
      try {
        tui = startTui({ bin: 'sh', args: ['-c', agentPromptCommand(agent, briefFile, 'posix')], cwd: project, env });
        const deadline = Date.now() + 90_000;
        let answered = false;
        for (;;) {
          if (asks && !answered && asks.screen.test(tui.screen())) {
            tui.keys(...asks.keys);
            answered = true;
          }
          const sent = mock.requests().slice(before).find((r) => JSON.stringify(r.body).includes(TOKEN));
          if (sent) break;
          if (Date.now() > deadline) throw new Error(`${agent} never sent the brief; screen:\n${tui.screen()}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      } finally {
        tui?.stop();
        cleanup?.(home);
        // What the CLI started exits on the terminal's hang-up, writing its last files: wait for it.
        await processesGone(home);
      }
    }, 150_000);
  }
});
