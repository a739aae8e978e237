/**
 * Zero-paste handoff into the real Factory Droid 0.225 through its SessionStart hook: a handoff saved
 * with `baton handoff … --to droid`, Baton's hooks installed with `baton hooks install --agent droid`
 * (the `hooks` key of ~/.factory/settings.json, as there is no hooks.json), then `droid exec` started
 * in the project folder against the mock LLM. The mock's request log shows the brief in the first
 * model request; Baton reports the handoff received by that very session (the id Droid stored the
 * prompt under); a second session gets nothing; uninstall gives settings.json back byte for byte.
 * Once the user has a ~/.factory/hooks.json, Baton's hooks go there and work the same.
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
const SOURCE_SESSION = '5b1f0e7a-3c2d-4e9f-8a6b-1d2c3e4f5a60';

function firstTurnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => r.url.includes('/chat/completions') && JSON.stringify(r.body).includes(probe));
}

describe('handoff received by the real Factory Droid through its SessionStart hook', () => {
  const rig = handoffRig('droid');

  it('injects the pending brief once, into the first request of the next session in the folder', async () => {
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const { agentHome, project } = scene;
    const baseline = await runAgent({ bin, args: promptArgs('droid', 'Say hello baselineprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
    const settingsFile = path.join(agentHome, '.factory', 'settings.json');
    const userSettings = fs.readFileSync(settingsFile, 'utf8');

    const install = runBaton(['hooks', 'install', '--agent', 'droid'], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    expect(install.stdout).toMatch(/Installed Baton's hooks/);
    const status = runBaton(['hooks', 'status', '--agent', 'droid', '--json'], env);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ agent: 'droid', installed: true, file: settingsFile });

    // Nothing pending: the hook prints nothing and the first request carries no Baton text.
    mock.clear();
    const idle = await runAgent({ bin, args: promptArgs('droid', 'Say hello idleprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(idle.code, idle.stdout + idle.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'idleprobe'), scene);

    const checkpointId = handOffTo(scene, 'droid', env);

    mock.clear();
    const first = await runAgent({ bin, args: promptArgs('droid', 'Continue please firstprobe.'), cwd: path.join(project, 'src'), env, timeoutMs: 180_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectBrief(firstTurnRequest(mock.requests(), 'firstprobe'), scene, checkpointId);

    const by = receivedBy(scene, checkpointId);
    expect(by.startsWith('droid:'), by).toBe(true);
    // The id is the session Droid stored this very prompt under.
    const sessionId = by.slice('droid:'.length);
    const sessions = path.join(agentHome, '.factory', 'sessions');
    const transcript = (fs.readdirSync(sessions, { recursive: true }) as string[]).find((f) => f.endsWith(`${sessionId}.jsonl`));
    expect(transcript, `Droid stored no session ${sessionId}`).toBeDefined();
    expect(fs.readFileSync(path.join(sessions, transcript!), 'utf8')).toContain('firstprobe');

    // A second session in the same folder gets nothing.
    mock.clear();
    const second = await runAgent({ bin, args: promptArgs('droid', 'Say hello secondprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'secondprobe'), scene);

    const uninstall = runBaton(['hooks', 'uninstall', '--agent', 'droid'], env);
    expect(uninstall.code, uninstall.stderr + uninstall.stdout).toBe(0);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(userSettings);

    // Once the user has a hooks.json (Droid then ignores settings.json's hooks), Baton's go there.
    const hooksFile = path.join(agentHome, '.factory', 'hooks.json');
    const userHooks = '{\n  "hooksDisabled": false\n}';
    fs.writeFileSync(hooksFile, userHooks);
    const again = runBaton(['hooks', 'install', '--agent', 'droid'], env);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stdout).toContain(hooksFile);
    const nextCheckpoint = handOffTo(scene, 'droid', env);
    mock.clear();
    const third = await runAgent({ bin, args: promptArgs('droid', 'Continue please thirdprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(third.code, third.stdout + third.stderr).toBe(0);
    expectBrief(firstTurnRequest(mock.requests(), 'thirdprobe'), scene, nextCheckpoint);
    expect(runBaton(['hooks', 'uninstall', '--agent', 'droid'], env).code).toBe(0);
    expect(fs.readFileSync(hooksFile, 'utf8')).toBe(userHooks);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(userSettings);
  }, 600_000);
});
