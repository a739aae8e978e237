/**
 * The real GitHub Copilot CLI (pinned, from npm) against the mock LLM with a real Baton core
 * watching its store: a session it writes is searchable within a second of the prompt reaching
 * disk, and a resume (`--resume=<id>`) appends to the same session. Handoffs into Copilot (its
 * sessionStart hook) are tested in handoff-gemini-qwen.test.ts, its MCP entry in mcp-registration.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, notesPrompt, searchableWhileRunning, sessionWithTools, watchAgent } from '../../testing/agents/watching-scene.js';

function eventFiles(home: string): string[] {
  const dir = path.join(home, '.copilot', 'session-state');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((d) => path.join(dir, d, 'events.jsonl'))
    .filter((f) => fs.existsSync(f));
}

describe('real GitHub Copilot CLI with a watching Baton', () => {
  // Copilot is set up after Baton started watching (no ~/.copilot before).
  const ready = watchAgent('copilot', 'copilot-app');

  it('makes a session Copilot is writing searchable within a second of its prompt reaching disk; a resume appends to it', async () => {
    const { bin, core, home, project, agentEnv: copilotEnv } = ready();
    const token = `copilotprobe${Date.now().toString(36)}`;
    const prompt = notesPrompt(project, token);
    const probe = await searchableWhileRunning(core, 'copilot', token, () => eventFiles(home).some((f) => fs.readFileSync(f, 'utf8').includes(token)), () => runAgent({ bin, args: ['-p', prompt, '--allow-all-tools'], cwd: project, env: copilotEnv, timeoutMs: 180_000 }));
    expectSearchableWithinASecond('copilot', probe);

    const [file] = eventFiles(home);
    const id = path.basename(path.dirname(file!));
    // The rest of the run (tool call, answer) arrives through the watcher too.
    const session = await sessionWithTools(core, `copilot:${id}`);
    expect(session).toMatchObject({ agent: 'copilot', cwd: project, userTurns: 1, toolNames: ['view'], model: 'mock-model' });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);

    const resumed = await runAgent({ bin, args: ['-p', 'Thanks! Anything else?', '--allow-all-tools', `--resume=${id}`], cwd: project, env: copilotEnv, timeoutMs: 180_000 });
    expect(resumed.code, `copilot --resume failed:\n${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    await core.syncNow('copilot');
    expect(eventFiles(home)).toHaveLength(1);
    expect(await core.api.getSession({ session: `copilot:${id}` })).toMatchObject({ userTurns: 2, firstPrompt: session.firstPrompt });
  });
});
