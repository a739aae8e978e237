/**
 * The real Qwen Code CLI (pinned, from npm) with a real Baton core watching its store: a session it
 * writes is searchable within a second of the line reaching disk, and Baton registered in Qwen's
 * settings.json (`baton mcp install --agent qwen`) is reached when the model calls a Baton tool.
 * Skips, with the reason, where the CLI cannot be installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_AGENT } from '../../testing/agents/agent-home.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, searchableWhileRunning, sessionWithTools, watchAgent } from '../../testing/agents/watching-scene.js';

interface Line {
  type: string;
  timestamp: string;
}

function chatLines(home: string): { file: string; lines: Line[] }[] {
  const projects = path.join(home, '.qwen', 'projects');
  if (!fs.existsSync(projects)) return [];
  return (fs.readdirSync(projects, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(projects, f))
    .map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) }));
}

describe('real Qwen Code with a watching Baton', () => {
  // Qwen Code is set up after Baton started watching (no ~/.qwen before): installed while Baton runs.
  const ready = watchAgent('qwen', 'qwen-app', { mockEnv: { MOCK_AGENT: MOCK_AGENT.qwen } });

  it('makes a session Qwen is writing searchable within a second of its prompt reaching disk', async () => {
    const { bin, core, home, project, agentEnv: qwenEnv } = ready();
    const token = `qwenprobe${Date.now().toString(36)}`;
    const probe = await searchableWhileRunning(core, 'qwen', token, () => chatLines(home).some((c) => c.lines.some((l) => JSON.stringify(l).includes(token))), () => runAgent({ bin, args: ['--yolo', '-p', `Please read \`notes-${token}.txt\` and tell me what it says.`], cwd: project, env: qwenEnv, timeoutMs: 180_000 }));
    // Measured from the line reaching disk: Qwen stamps a record when it is made and writes it later.
    expectSearchableWithinASecond('qwen', probe);
    const [chat] = chatLines(home);
    expect(chat, 'Qwen wrote no chat file').toBeDefined();

    const sessionId = path.basename(chat!.file, '.jsonl');
    // The rest of the run (tool call, answer) arrives through the watcher too.
    const session = await sessionWithTools(core, `qwen:${sessionId}`);
    expect(session).toMatchObject({ agent: 'qwen', cwd: project, userTurns: 1, toolNames: ['read_file'], model: 'mock-coder' });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);
  });

  it('shows a subagent Qwen ran as a child session of the one that launched it', async () => {
    const { bin, core, home, project, agentEnv: qwenEnv } = ready();
    fs.writeFileSync(path.join(project, 'todo.txt'), 'milk\nsubagentprobe\n');
    const run = await runAgent({ bin, args: ['--yolo', '-p', 'Please use a subagent to read `todo.txt` and report what it says.'], cwd: project, env: qwenEnv, timeoutMs: 180_000 });
    expect(run.code, `qwen failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const child = chatLines(home).find((c) => c.file.includes(`${path.sep}subagents${path.sep}`));
    expect(child, 'Qwen wrote no subagent transcript').toBeDefined();
    const parentId = path.basename(path.dirname(child!.file));
    await core.syncNow('qwen');
    const sub = await core.api.getSession({ session: `qwen:${path.basename(child!.file, '.jsonl')}` });
    expect(sub).toMatchObject({ parentId: `qwen:${parentId}`, firstPrompt: 'Read `todo.txt` and report what it says.', userTurns: 1, toolNames: ['read_file'] });
    expect(await core.api.getSession({ session: `qwen:${parentId}` })).toMatchObject({ parentId: null, userTurns: 1, toolNames: ['agent'] });
    const hits = await core.api.search({ query: 'agent:qwen subagentprobe', limit: 20 });
    expect(hits.map((h) => h.sessionId)).toContain(sub.id);
  });

  it('counts a --fork-session copy of a session once, in its source, and links the fork to it', async () => {
    const { bin, core, home, project, agentEnv: qwenEnv } = ready();
    const source = chatLines(home).find((c) => c.file.includes(`${path.sep}chats${path.sep}`))!;
    const sourceId = path.basename(source.file, '.jsonl');
    const before = new Set(chatLines(home).map((c) => c.file));
    const run = await runAgent({ bin, args: ['--yolo', '--resume', sourceId, '--fork-session', '-p', 'Say forkprobe, please.'], cwd: project, env: qwenEnv, timeoutMs: 180_000 });
    expect(run.code, `qwen failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const fork = chatLines(home).find((c) => !before.has(c.file))!;
    expect(fork, 'Qwen wrote no fork file').toBeDefined();
    await core.syncNow('qwen');
    const forkSession = await core.api.getSession({ session: `qwen:${path.basename(fork.file, '.jsonl')}` });
    expect(forkSession).toMatchObject({ parentId: `qwen:${sourceId}`, userTurns: 1, firstPrompt: 'Say forkprobe, please.' });
    expect(await core.api.getSession({ session: `qwen:${sourceId}` })).toMatchObject({ userTurns: 1 });
  });

  it('registers Baton in settings.json; a Baton tool called by the model reaches Baton', async () => {
    const { bin, core, home, project, mock, serve, agentEnv: qwenEnv } = ready();
    const server = await serve();
    const [installed] = await core.api.installMcp({ agent: 'qwen', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.qwen', 'settings.json') });
    const settings = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { mcpServers: Record<string, unknown>; security: unknown };
    expect(settings.mcpServers.baton).toMatchObject({ httpUrl: `${server.url}/mcp`, alwaysLoadTools: true });
    expect(settings.security).toBeDefined(); // the harness's own settings survive

    mock.clear();
    const run = await runAgent({ bin, args: ['--yolo', '-p', 'call tool `list_sessions` with `{"agent":"qwen"}`'], cwd: project, env: qwenEnv, timeoutMs: 180_000 });
    expect(run.timedOut, `qwen timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `qwen failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().map((r) => JSON.stringify(r.body));
    // Qwen offered Baton's tools to the model…
    expect(requests.some((b) => b.includes('mcp__baton__list_sessions'))).toBe(true);
    // …and the tool's answer, read from Baton's index, went back to the model: it names the session above.
    const first = chatLines(home).find((c) => c.lines.some((l) => l.type === 'user' && JSON.stringify(l).includes('qwenprobe')))!;
    expect(requests.some((b) => b.includes('functionResponse') || b.includes('"role":"tool"'))).toBe(true);
    expect(requests.at(-1)).toContain(path.basename(first.file, '.jsonl'));
  });
});
