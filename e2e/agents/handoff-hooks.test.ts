/**
 * Zero-paste handoff with the real agents: a handoff saved with `baton handoff`, Baton's hooks
 * installed with `baton hooks install`, then the real Claude Code / Codex started in the project
 * folder against the mock LLM. The mock's request log shows the brief's goal in the new session's
 * first model request; Baton reports the handoff received by that very session; a second session
 * gets nothing; with nothing pending the first request is unchanged; uninstall restores the
 * agent's config byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openUserData } from '../../electron/core/userdata/user-data.js';
import type { MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';
import { expectBrief, expectNoBrief, handOffTo, receivedBy } from '../../testing/agents/handoff-scene.js';
import { handoffRig } from '../../testing/agents/handoff-rig.js';

const GOAL = 'Teach the zebrafrost parser to accept tab separators';
const SOURCE_SESSION = '7d3c1a52-5c1e-4c8e-9a8e-2f6b9e1d4c01';

type Agent = 'claude' | 'codex';

function promptArgs(agent: Agent, prompt: string): string[] {
  return agent === 'claude'
    ? ['-p', prompt, '--allowedTools', 'Bash,Read']
    : ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', prompt];
}

/** The first model request of the session the prompt started (utility calls such as titles excluded). */
function firstTurnRequest(requests: MockRequest[], prompt: string): MockRequest | undefined {
  return requests.find((r) => JSON.stringify(r.body).includes(prompt) && /\/(messages|responses)/.test(r.url));
}

/** The session id the agent wrote its transcript under, newest first. */
function agentSessionIds(agent: Agent, home: string): string[] {
  const root = agent === 'claude' ? path.join(home, '.claude', 'projects') : path.join(home, '.codex', 'sessions');
  const files: { file: string; mtime: number }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.jsonl')) files.push({ file: full, mtime: fs.statSync(full).mtimeMs });
    }
  };
  walk(root);
  return files
    .sort((a, b) => b.mtime - a.mtime)
    .map(({ file }) => (/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(file)?.[1] ?? ''));
}

/** A request with what varies between two runs (ids, times, temp paths) masked. */
function normalised(request: MockRequest | undefined, tmp: string): string {
  const body = request?.body as Record<string, unknown> | undefined;
  const payload = JSON.stringify(body?.messages ?? body?.input ?? null);
  return payload
    .split(tmp)
    .join('<tmp>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}([T ][0-9:.]+Z?)?/g, '<date>')
    .replace(/home-[A-Za-z0-9]+/g, 'home-<x>');
}

describe.each<Agent>(['claude', 'codex'])('handoff received by the real %s through its start-up hook', (agent) => {
  const rig = handoffRig(agent);

  it('injects the pending brief once, into the first request of the next session in the folder', async () => {
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const tmp = path.dirname(scene.agentHome); // the suite's temp folder, which the requests name
    const { agentHome, project, batonHome } = scene;
    // A config of the user's own, which uninstall must give back byte for byte.
    const configFile = agent === 'claude' ? path.join(agentHome, '.claude', 'settings.json') : path.join(agentHome, '.codex', 'hooks.json');
    const userConfig = agent === 'claude' ? '{\n  "theme": "dark",\n  "hooks": { "Notification": [ { "hooks": [ { "type": "command", "command": "true" } ] } ] }\n}\n' : null;
    if (userConfig !== null) fs.writeFileSync(configFile, userConfig);

    // Nothing pending, hooks not installed yet: the baseline first request.
    const baseline = await runAgent({ bin, args: promptArgs(agent, 'Say hello baselineprobe.'), cwd: project, env });
    expect(baseline.code, baseline.stderr).toBe(0);
    const baselineRequest = firstTurnRequest(mock.requests(), 'baselineprobe');

    const install = runBaton(['hooks', 'install', '--agent', agent], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    expect(install.stdout).toMatch(/Installed Baton's hooks/);

    // Nothing pending, hooks installed: the first request is what it was without them.
    mock.clear();
    const idle = await runAgent({ bin, args: promptArgs(agent, 'Say hello baselineprobe.'), cwd: project, env });
    expect(idle.code, idle.stderr).toBe(0);
    const idleRequest = firstTurnRequest(mock.requests(), 'baselineprobe');
    expect(idleRequest).toBeDefined();
    expect(normalised(idleRequest, tmp)).toBe(normalised(baselineRequest, tmp));

    const checkpointId = handOffTo(scene, agent, env);

    mock.clear();
    const first = await runAgent({ bin, args: promptArgs(agent, 'Continue please firstprobe.'), cwd: path.join(project, 'src'), env });
    expect(first.code, first.stderr).toBe(0);
    const firstRequest = firstTurnRequest(mock.requests(), 'firstprobe');
    expectBrief(firstRequest, scene, checkpointId);

    const receiver = agentSessionIds(agent, agentHome)[0];
    const by = receivedBy(scene, checkpointId);
    expect(by).toBe(`${agent}:${receiver}`);

    // A second session in the same folder gets nothing.
    mock.clear();
    const second = await runAgent({ bin, args: promptArgs(agent, 'Say hello secondprobe.'), cwd: project, env });
    expect(second.code, second.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'secondprobe'), scene);

    if (agent === 'claude') {
      // /compact in the session that received the handoff: Claude runs PreCompact first, and Baton
      // saves what the transcript said right before, printing nothing into the summariser's prompt.
      mock.clear();
      const compact = await runAgent({ bin, args: ['-p', '/compact', '--resume', receiver!], cwd: path.join(project, 'src'), env });
      expect(compact.code, compact.stderr).toBe(0);
      const summaryRequest = mock.requests().find((r) => JSON.stringify(r.body).includes('summary'));
      expect(summaryRequest, 'Claude sent no compaction request').toBeDefined();
      expect(JSON.stringify(summaryRequest?.body)).not.toContain('Automatic checkpoint');
      const after = openUserData(batonHome);
      const auto = after.latestCheckpoint(`claude:${receiver}`);
      after.close();
      expect(auto?.summary).toMatch(/^Automatic checkpoint before a manual compaction/);
      expect(auto?.summary).toContain('Continue please firstprobe.');
    }

    const status = runBaton(['hooks', 'status', '--agent', agent, '--json'], env);
    expect(JSON.parse(status.stdout)[0].installed).toBe(true);

    const uninstall = runBaton(['hooks', 'uninstall', '--agent', agent], env);
    expect(uninstall.code, uninstall.stderr + uninstall.stdout).toBe(0);
    if (userConfig === null) expect(fs.existsSync(configFile)).toBe(false);
    else expect(fs.readFileSync(configFile, 'utf8')).toBe(userConfig);
  });
});
