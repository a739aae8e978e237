/**
 * Zero-paste handoff into the real Gemini CLI 0.61 and Qwen Code 0.24 through their SessionStart
 * hooks in settings.json, and into the real GitHub Copilot CLI 1.0.102 through its sessionStart hook
 * in a personal hooks file of Baton's own (~/.copilot/hooks/baton.json): a handoff saved with `baton handoff … --to <agent>`, Baton's hooks
 * installed with `baton hooks install`, then the real CLI started in the project folder against the
 * mock LLM. The mock's request log shows the brief in the first model request; Baton reports the
 * handoff received by that very session (the id the agent stored its chat under); a second session
 * gets nothing; uninstall gives the user's settings.json back byte for byte (Copilot: the file is gone).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import type { MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';
import { expectBrief, expectNoBrief, handOffTo, receivedBy } from '../../testing/agents/handoff-scene.js';
import { handoffRig } from '../../testing/agents/handoff-rig.js';

const GOAL = 'Teach the marshwren tokenizer to accept tab separators';
const SOURCE_SESSION = '7d3c1a52-5c1e-4c8e-9a8e-2f6b9e1d4c21';

type Agent = 'gemini' | 'qwen' | 'copilot';

/** Where Baton's hooks go: the agent's settings.json, or Copilot CLI's own hooks folder. */
const HOOKS_FILE: Record<Agent, string> = {
  gemini: path.join('.gemini', 'settings.json'),
  qwen: path.join('.qwen', 'settings.json'),
  copilot: path.join('.copilot', 'hooks', 'baton.json'),
};

function firstTurnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => /generateContent|chat\/completions/.test(r.url) && JSON.stringify(r.body).includes(probe));
}

/** Files under `dir` whose text contains every one of `needles` (the agent's own chat record). */
function filesContaining(dir: string, needles: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && /\.jsonl?$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        if (needles.every((n) => text.includes(n))) out.push(full);
      }
    }
  };
  walk(dir);
  return out;
}

describe.each<Agent>(['gemini', 'qwen', 'copilot'])('handoff received by the real %s through its session start hook', (agent) => {
  const rig = handoffRig(agent);

  it('injects the pending brief once, into the first request of the next session in the folder', async () => {
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const { agentHome, project } = scene;
    // A first run before Baton touches anything: the agent settles its own settings.json (Qwen Code
    // adds its "$version" migration mark), which uninstall must then give back byte for byte.
    const baseline = await runAgent({ bin, args: promptArgs(agent, 'Say hello baselineprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
    const settingsFile = path.join(agentHome, HOOKS_FILE[agent]);
    const userSettings = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null;

    const install = runBaton(['hooks', 'install', '--agent', agent], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    expect(install.stdout).toMatch(/Installed Baton's hooks/);
    const status = runBaton(['hooks', 'status', '--agent', agent, '--json'], env);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ agent, installed: true });

    // Nothing pending: the hook prints nothing and the first request carries no Baton text.
    mock.clear();
    const idle = await runAgent({ bin, args: promptArgs(agent, 'Say hello idleprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(idle.code, idle.stdout + idle.stderr).toBe(0);
    const idleRequest = firstTurnRequest(mock.requests(), 'idleprobe');
    expect(idleRequest, 'no request with the prompt').toBeDefined();
    expect(JSON.stringify(idleRequest?.body)).not.toContain('Baton handoff');

    const checkpointId = handOffTo(scene, agent, env);

    mock.clear();
    const first = await runAgent({ bin, args: promptArgs(agent, 'Continue please firstprobe.'), cwd: path.join(project, 'src'), env, timeoutMs: 180_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const firstRequest = firstTurnRequest(mock.requests(), 'firstprobe');
    expectBrief(firstRequest, scene, checkpointId);

    const by = receivedBy(scene, checkpointId);
    expect(by.startsWith(`${agent}:`), by).toBe(true);
    // The id is the session the agent stored this very prompt under.
    const sessionId = by.slice(agent.length + 1);
    expect(filesContaining(agentHome, [sessionId, 'firstprobe']).length, `no ${agent} chat file holds ${sessionId} and the prompt`).toBeGreaterThan(0);

    // A second session in the same folder gets nothing.
    mock.clear();
    const second = await runAgent({ bin, args: promptArgs(agent, 'Say hello secondprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'secondprobe'), scene);

    const uninstall = runBaton(['hooks', 'uninstall', '--agent', agent], env);
    expect(uninstall.code, uninstall.stderr + uninstall.stdout).toBe(0);
    expect(fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null).toBe(userSettings);
  }, 600_000);
});
