/**
 * Zero-paste handoff into the real Letta Code 0.32 (local backend) through its SessionStart hook in
 * ~/.letta/settings.json: a handoff saved with `baton handoff … --to letta`, Baton's hooks installed
 * with `baton hooks install --agent letta`, then Letta's interactive TUI started in the project
 * folder (Letta runs SessionStart hooks in its TUI only; `letta -p` runs none). The mock's request
 * log shows the brief in the first model request; Baton reports the handoff received by that very
 * conversation; the next session gets nothing; uninstall takes Baton's hooks out again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { LETTA_MODEL } from '../../testing/agents/homes/letta.js';
import { type MockLlm, type MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';
import { expectBrief, expectNoBrief, handOffTo, receivedBy } from '../../testing/agents/handoff-scene.js';
import { handoffRig } from '../../testing/agents/handoff-rig.js';
import { hasTmux, startTui, type Tui } from '../../testing/agents/tmux-tui.js';
import { typeIntoLetta } from '../../testing/agents/letta-tui.js';

const GOAL = 'Teach the marshwren tokenizer to accept tab separators';
const SOURCE_SESSION = '5b1e9c40-2f7a-4d3b-8c6e-1a9d7e3f0b52';

async function requestWith(mock: MockLlm, probe: string, timeoutMs = 60_000): Promise<MockRequest | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const hit = mock.requests().find((r) => r.url.includes('chat/completions') && JSON.stringify(r.body).includes(probe));
    if (hit || Date.now() > end) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether Letta stored a conversation holding `probe` under `home`. */
function storedConversationWith(home: string, probe: string): boolean {
  const dir = path.join(home, '.letta', 'lc-local-backend', 'conversations');
  return fs.existsSync(dir) && fs.readdirSync(dir).some((d) => {
    const file = path.join(dir, d, 'messages.jsonl');
    return fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(probe);
  });
}

/**
 * One interactive Letta session: started in `cwd`, one prompt typed once its SessionStart hook ran
 * (`hookRan`: what Letta prints when it has — the hook's exit line, or the end of the brief it
 * printed, which pushes that line off the screen); ends once the turn is stored.
 */
async function tuiSession(bin: string, cwd: string, env: NodeJS.ProcessEnv, mock: MockLlm, hookRan: RegExp, prompt: string, probe: string): Promise<MockRequest | undefined> {
  const tui: Tui = startTui({ bin, args: ['-m', LETTA_MODEL, '--new'], cwd, env });
  try {
    // Letta prints the hook's result as it holds its output for the first message.
    await tui.waitFor(hookRan, 60_000);
    await typeIntoLetta(tui, prompt);
    tui.keys('Enter');
    const request = await requestWith(mock, probe);
    const end = Date.now() + 30_000;
    while (!storedConversationWith(env.HOME ?? '', probe) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    return request;
  } finally {
    tui.stop();
  }
}

describe('handoff received by the real Letta Code through its SessionStart hook', () => {
  const rig = handoffRig('letta');

  it('injects the pending brief once, into the first request of the next interactive session in the folder', async () => {
    expect(hasTmux(), 'tmux is needed to drive the Letta TUI').toBe(true);
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const { agentHome, project } = scene;
    // A first run before Baton touches anything: Letta creates its agent and settles its settings.json.
    const baseline = await runAgent({ bin, args: promptArgs('letta', 'Say hello baselineprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
    const settingsFile = path.join(agentHome, '.letta', 'settings.json');

    const install = runBaton(['hooks', 'install', '--agent', 'letta'], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    expect(install.stdout).toMatch(/Installed Baton's hooks/);
    const status = runBaton(['hooks', 'status', '--agent', 'letta', '--json'], env);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ agent: 'letta', installed: true });

    const checkpointId = handOffTo(scene, 'letta', env);

    mock.clear();
    const firstRequest = await tuiSession(bin, path.join(project, 'src'), env, mock, /restate your understanding/, 'Continue please firstprobe.', 'firstprobe');
    expectBrief(firstRequest, scene, checkpointId);
    // Letta put it in the first user message, as its SessionStart hook context.
    expect(JSON.stringify(firstRequest?.body)).toContain('[SessionStart hook context]');

    const by = receivedBy(scene, checkpointId);
    expect(by).toMatch(/^letta:local-conv-\d+$/);
    // The id is the conversation Letta stored this very prompt under.
    const folder = Buffer.from(`conversation:${by.slice('letta:'.length)}`).toString('base64url');
    const messages = path.join(agentHome, '.letta', 'lc-local-backend', 'conversations', folder, 'messages.jsonl');
    expect(fs.readFileSync(messages, 'utf8')).toContain('firstprobe');

    // A second session in the same folder gets nothing.
    mock.clear();
    expectNoBrief(await tuiSession(bin, project, env, mock, /\[hook:SessionStart\][\s\S]*exit 0/, 'Say hello secondprobe.', 'secondprobe'), scene);

    // Letta rewrote settings.json meanwhile: uninstall takes out Baton's hooks (and the `hooks` they brought) only.
    const before = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    const uninstall = runBaton(['hooks', 'uninstall', '--agent', 'letta'], env);
    expect(uninstall.code, uninstall.stderr + uninstall.stdout).toBe(0);
    const { hooks: _hooks, ...rest } = before;
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8'))).toEqual(rest);
  }, 600_000);
});
