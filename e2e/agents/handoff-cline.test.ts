/**
 * Zero-paste handoff into the real Cline CLI 3.0: a handoff saved with `baton handoff … --to cline`,
 * Baton's Cline plugin installed with `baton mcp install --agent cline --plugin`, then real Cline
 * started in the project (a temp git repository: Cline commits checkpoint refs into it) against the
 * mock LLM, Baton itself not running (the plugin's hook reads baton.db). The mock's request log
 * shows the brief in the first model request; Baton reports the handoff received by that very
 * session; a second session gets nothing; the uninstall gives the plugin folder back.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { stopClineHub } from '../../testing/agents/homes/cline.js';
import type { MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';
import { expectBrief, expectNoBrief, handOffTo, receivedBy } from '../../testing/agents/handoff-scene.js';
import { handoffRig } from '../../testing/agents/handoff-rig.js';

const GOAL = 'Teach the quillwort lexer to accept tab separators';
const SOURCE_SESSION = '5b0e7a61-2f4d-4c8e-9a1b-3c7d9e2f4a10';

function firstTurnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => JSON.stringify(r.body).includes(probe));
}

/** Cline's session ids (its session folders), oldest first. */
function clineSessions(home: string): string[] {
  const dir = path.join(home, '.cline', 'data', 'sessions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe('handoff received by the real Cline CLI through Baton’s Cline plugin', () => {
  const rig = handoffRig('cline', { cleanup: (scene) => scene && stopClineHub(scene.agentHome) });

  it('adds the pending brief once, to the first request of the next Cline session in the repository', async () => {
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const { agentHome, project } = scene;
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: project, stdio: 'ignore' });
    fs.writeFileSync(path.join(project, 'README.md'), '# quillwort\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    const pluginsDir = path.join(agentHome, '.cline', 'plugins');
    expect(fs.existsSync(pluginsDir)).toBe(false);

    const install = runBaton(['mcp', 'install', '--agent', 'cline', '--plugin'], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    const plugin = path.join(pluginsDir, 'baton.js');
    expect(fs.readFileSync(plugin, 'utf8')).toContain('bin/baton.mjs');
    const status = runBaton(['mcp', 'status', '--agent', 'cline'], env);
    expect(status.stdout).toContain(`plugin: installed — ${plugin}`);

    // Nothing pending: Cline starts as before, no Baton context in its first request.
    const idle = await runAgent({ bin, args: promptArgs('cline', 'Say hello idleprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(idle.code, idle.stdout + idle.stderr).toBe(0);
    const idleRequest = firstTurnRequest(mock.requests(), 'idleprobe');
    expect(idleRequest).toBeDefined();
    expect(JSON.stringify(idleRequest?.body)).not.toContain('Baton handoff');

    const checkpointId = handOffTo(scene, 'cline', env);

    mock.clear();
    const before = new Set(clineSessions(agentHome));
    const first = await runAgent({ bin, args: promptArgs('cline', 'Continue please firstprobe.'), cwd: path.join(project, 'src'), env, timeoutMs: 180_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const firstRequest = firstTurnRequest(mock.requests(), 'firstprobe');
    expectBrief(firstRequest, scene, checkpointId);
    // It is the very first request of that session, and it came from the plugin's run-start context.
    expect(mock.requests()[0]).toEqual(firstRequest);
    expect(JSON.stringify(firstRequest?.body)).toContain('hook_context source=\\"RunStart\\"');

    const [receiver] = clineSessions(agentHome).filter((id) => !before.has(id));
    expect(receiver).toBeDefined();
    expect(receivedBy(scene, checkpointId)).toBe(`cline:${receiver}`);

    // A second session in the same repository gets nothing.
    mock.clear();
    const second = await runAgent({ bin, args: promptArgs('cline', 'Say hello secondprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'secondprobe'), scene);

    // The uninstall gives the home back as it was: no plugin, no plugins folder.
    const uninstall = runBaton(['mcp', 'uninstall', '--agent', 'cline', '--plugin'], env);
    expect(uninstall.code, uninstall.stderr + uninstall.stdout).toBe(0);
    expect(fs.existsSync(pluginsDir)).toBe(false);
  }, 600_000);
});
