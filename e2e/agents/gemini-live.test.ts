/**
 * The real Gemini CLI (pinned, from npm) writes a new session while a watching Baton runs: the
 * prompt is searchable within a second of Gemini writing it, and the finished session lists with
 * its cwd, prompt and tools as the reader promises.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

const WORD = 'zebraquartzgemini';

describe('a new Gemini CLI session while Baton watches', () => {
  let tmp: string;
  let home: string;
  let mock: MockLlm;
  let cli: AgentCli;
  let core: BatonCore | null = null;
  let server: LocalServer | null = null;
  let firstSession: string | null = null;

  beforeAll(async () => {
    cli = await ensureAgentCli('gemini');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-gemini-live-'));
    home = path.join(tmp, 'home');
    mock = await startMockLlm({ dir: tmp });
  });
  afterAll(async () => {
    await server?.close();
    await core?.close();
    await mock?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is searchable within a second of Gemini writing it', async () => {
    requireCli(cli);
    const project = path.join(home, 'projects', 'live-app');
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, 'todo.txt'), 'buy milk\n');
    const env = agentEnv('gemini', home, mock.url); // creates ~/.gemini
    // A store in use has tmp/: Baton then watches only it, and the project folder appears below it.
    fs.mkdirSync(path.join(home, '.gemini', 'tmp'));
    core = await createBatonCore({
      environment: { env: { HOME: home }, platform: process.platform, home },
      dataDir: path.join(tmp, 'baton'),
      // As `baton serve` runs: ingest in its worker thread, the live watcher on.
      ingest: 'worker',
      watch: true,
      log: () => {},
    });
    await core.start();
    await core.whenCurrent();
    const api = core.api;
    expect((await api.listSessions({ agent: 'gemini', limit: 10, offset: 0 })).total).toBe(0);

    // Poll search while the CLI runs: the first hit time is compared with the prompt's own timestamp.
    let firstHitAt: number | null = null;
    let polling = true;
    const poller = (async () => {
      while (polling && firstHitAt === null) {
        const hits = await api.search({ query: `agent:gemini ${WORD}`, limit: 5 });
        if (hits.length > 0) firstHitAt = Date.now();
        else await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const prompt = `Please read \`todo.txt\` and tell me what is on it (${WORD}).`;
    const run = await runAgent({ bin: cli.bin, args: promptArgs('gemini', prompt), cwd: project, env, timeoutMs: 180_000 });
    expect(run.code, `gemini failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const settle = Date.now() + 5000;
    while (firstHitAt === null && Date.now() < settle) await new Promise((r) => setTimeout(r, 25));
    polling = false;
    await poller;

    const chats = path.join(home, '.gemini', 'tmp', 'live-app', 'chats');
    const [file] = fs.readdirSync(chats).filter((f) => f.startsWith('session-') && f.endsWith('.jsonl'));
    expect(file).toBeDefined();
    const promptRecord = fs
      .readFileSync(path.join(chats, file!), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type?: string; timestamp?: string; content?: { text?: string }[] })
      .find((r) => r.type === 'user' && r.content?.[0]?.text === prompt);
    expect(promptRecord?.timestamp).toBeDefined();
    expect(firstHitAt, 'the prompt never became searchable').not.toBeNull();
    const lag = firstHitAt! - Date.parse(promptRecord!.timestamp!);
    expect(lag, `searchable ${lag} ms after Gemini wrote the prompt`).toBeLessThan(1000);

    // Once the CLI is done, the session is complete in the index.
    await core.syncNow('gemini');
    const page = await api.listSessions({ agent: 'gemini', limit: 10, offset: 0 });
    expect(page.total).toBe(1);
    expect(page.sessions[0]).toMatchObject({ cwd: fs.realpathSync(project), firstPrompt: prompt, userTurns: 1, toolNames: ['read_file'] });
    expect(page.sessions[0]!.usage.output).toBeGreaterThan(0);
    firstSession = page.sessions[0]!.nativeId;
  });

  it('registers Baton in Gemini CLI (baton mcp install --agent gemini) and Gemini’s call of a Baton tool reaches Baton', async () => {
    requireCli(cli);
    expect(core && firstSession, 'needs the session of the test before').toBeTruthy();
    if (!core || !firstSession) return;
    server = await startLocalServer(core, 0);
    core.settings.update({ port: server.port });
    const settingsFile = path.join(home, '.gemini', 'settings.json');
    const [installed] = await core.api.installMcp({ agent: 'gemini', dryRun: false });
    expect(installed, installed?.message).toMatchObject({ agent: 'gemini', ok: true, changed: true, file: settingsFile });
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as { mcpServers?: Record<string, { httpUrl?: string }>; security?: unknown };
    expect(settings.mcpServers?.baton?.httpUrl).toBe(`${server.url}/mcp`);
    expect(settings.security).toBeDefined(); // the rest of the user's settings kept
    expect(fs.statSync(settingsFile).mode & 0o077).toBe(0); // holds the token: owner only

    mock.clear();
    const project = path.join(home, 'projects', 'live-app');
    const prompt = `Please call tool \`search_all_sessions\` with \`${JSON.stringify({ query: WORD, agent: 'gemini' })}\``;
    const run = await runAgent({ bin: cli.bin, args: promptArgs('gemini', prompt), cwd: project, env: agentEnv('gemini', home, mock.url), timeoutMs: 180_000 });
    expect(run.code, `gemini failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    // Gemini offered Baton's tools to the model, and sent Baton's answer back: the search hit
    // names the session indexed in the test before.
    const bodies = mock.requests().map((r) => JSON.stringify(r.body));
    expect(bodies.some((b) => b.includes('search_all_sessions'))).toBe(true);
    const answer = bodies.find((b) => b.includes('functionResponse') && b.includes(firstSession!));
    expect(answer, `no Baton answer in what Gemini sent:\n${run.stdout}\n${run.stderr}`).toBeDefined();
  });

  it('links a subagent Gemini runs to the session that started it', async () => {
    requireCli(cli);
    expect(core, 'needs the watching Baton of the first test').toBeTruthy();
    if (!core) return;
    const project = path.join(home, 'projects', 'live-app');
    const prompt = 'Please use a subagent to read `todo.txt` and report.';
    const run = await runAgent({ bin: cli.bin, args: promptArgs('gemini', prompt), cwd: project, env: agentEnv('gemini', home, mock.url), timeoutMs: 180_000 });
    expect(run.code, `gemini failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    await core.syncNow('gemini');
    const sessions = (await core.api.listSessions({ agent: 'gemini', limit: 50, offset: 0 })).sessions;
    const parent = sessions.find((s) => s.firstPrompt === prompt);
    expect(parent, JSON.stringify(sessions, null, 1)).toMatchObject({ parentId: null, userTurns: 1, toolNames: ['invoke_agent'] });
    const child = sessions.find((s) => s.parentId === parent!.id);
    expect(child).toMatchObject({ cwd: fs.realpathSync(project), userTurns: 1 });
    expect([...child!.toolNames].sort()).toEqual(['complete_task', 'read_file']);
  });

  it('reads a --resume of that session as one more turn: the replay of its history adds nothing', async () => {
    requireCli(cli);
    expect(core && firstSession, 'needs the session of the first test').toBeTruthy();
    if (!core || !firstSession) return;
    const id = firstSession;
    const before = await core.api.getSession({ session: `gemini:${id}` });
    const project = path.join(home, 'projects', 'live-app');
    const prompt = 'Thanks! Anything else?';
    const run = await runAgent({ bin: cli.bin, args: ['--yolo', '--resume', id, '-p', prompt], cwd: project, env: agentEnv('gemini', home, mock.url), timeoutMs: 180_000 });
    expect(run.code, `gemini failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const chats = path.join(home, '.gemini', 'tmp', 'live-app', 'chats');
    const own = fs.readdirSync(chats).filter((f) => f.endsWith(`${id.slice(0, 8)}.jsonl`));
    expect(fs.readFileSync(path.join(chats, own.sort()[0]!), 'utf8')).toContain('{"$set":{"messages":[');
    await core.syncNow('gemini');
    const after = await core.api.getSession({ session: `gemini:${id}` });
    expect(after).toMatchObject({ userTurns: 2, firstPrompt: before.firstPrompt, toolNames: before.toolNames, sourcePath: before.sourcePath });
    const messages = await core.api.getMessages({ session: `gemini:${id}`, offset: 0, limit: 1000 });
    expect(messages.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([before.firstPrompt, prompt]);
    expect(messages.total).toBeGreaterThan(before.messageCount);
    expect(messages.messages.filter((m) => m.kind === 'tool_call')).toHaveLength(1);
  });
});
