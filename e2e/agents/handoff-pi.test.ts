/**
 * Zero-paste handoff into the real pi 0.73: a handoff saved with `baton handoff … --to pi`, Baton's
 * pi extension installed with `baton mcp install --agent pi`, then real pi started in the project
 * folder against the mock LLM (Baton itself not running: the extension's hook reads baton.db). The
 * mock's request log shows the brief in the first model request; pi stores it as a custom message;
 * Baton reports the handoff received by that very session; a second session gets nothing.
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

const GOAL = 'Teach the quillwort lexer to accept tab separators';
const SOURCE_SESSION = '7d3c1a52-5c1e-4c8e-9a8e-2f6b9e1d4c20';

function firstTurnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => /\/messages/.test(r.url) && JSON.stringify(r.body).includes(probe));
}

/** pi's session files under the throwaway home, newest first: [session id, file]. */
function piSessions(home: string): { id: string; file: string }[] {
  const root = path.join(home, '.pi', 'agent', 'sessions');
  const files: { file: string; mtime: number }[] = [];
  for (const dir of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    for (const name of fs.readdirSync(path.join(root, dir))) {
      if (name.endsWith('.jsonl')) files.push({ file: path.join(root, dir, name), mtime: fs.statSync(path.join(root, dir, name)).mtimeMs });
    }
  }
  return files
    .sort((a, b) => b.mtime - a.mtime)
    .map(({ file }) => ({ file, id: (JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!) as { id: string }).id }));
}

describe('handoff received by the real pi through Baton’s pi extension', () => {
  const rig = handoffRig('pi');

  it('adds the pending brief once, to the first request of the next pi session in the folder', async () => {
    const { scene, env, bin } = rig.scene(GOAL, SOURCE_SESSION);
    const mock = rig.mock;
    const { agentHome, project } = scene;

    const install = runBaton(['mcp', 'install', '--agent', 'pi'], env);
    expect(install.code, install.stderr + install.stdout).toBe(0);
    const extension = path.join(agentHome, '.pi', 'agent', 'extensions', 'baton.ts');
    expect(fs.readFileSync(extension, 'utf8')).toContain('bin/baton.mjs');

    // Nothing pending: pi starts as before, no Baton message in its first request.
    const idle = await runAgent({ bin, args: promptArgs('pi', 'Say hello idleprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(idle.code, idle.stdout + idle.stderr).toBe(0);
    const idleRequest = firstTurnRequest(mock.requests(), 'idleprobe');
    expect(idleRequest).toBeDefined();
    expect(JSON.stringify(idleRequest?.body)).not.toContain('Baton handoff');

    const checkpointId = handOffTo(scene, 'pi', env);

    mock.clear();
    const first = await runAgent({ bin, args: promptArgs('pi', 'Continue please firstprobe.'), cwd: path.join(project, 'src'), env, timeoutMs: 180_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const firstRequest = firstTurnRequest(mock.requests(), 'firstprobe');
    expectBrief(firstRequest, scene, checkpointId);

    // pi kept it in the session as an extension's custom message (as the fixtures' extension session shows).
    const [receiver] = piSessions(agentHome);
    const stored = fs
      .readFileSync(receiver!.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; customType?: string; content?: string });
    const custom = stored.filter((e) => e.type === 'custom_message' && e.customType === 'baton-handoff');
    expect(custom).toHaveLength(1);
    expect(custom[0]!.content).toContain(GOAL);

    const by = receivedBy(scene, checkpointId);
    expect(by).toBe(`pi:${receiver!.id}`);

    // A second session in the same folder gets nothing.
    mock.clear();
    const second = await runAgent({ bin, args: promptArgs('pi', 'Say hello secondprobe.'), cwd: project, env, timeoutMs: 180_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expectNoBrief(firstTurnRequest(mock.requests(), 'secondprobe'), scene);
  }, 600_000);
});
