/**
 * Unattended continuation with the real CLIs, offline: Baton watches a HOME; a folder is switched on
 * with `baton auto on <folder> --to codex`; the real Claude Code runs there against a provider whose
 * plan limit is hit (../shared/mock-llm/limit-mock.js) and stops. Baton hands off and opens the real
 * Codex in that folder through the terminal it finds on PATH — here a stand-in `x-terminal-emulator`
 * that runs the command in a detached tmux session (a real tty) — and Codex's first model request
 * (the scripted mock's log) carries the brief. A limit hit in a folder not switched on opens nothing;
 * a second hit in the same folder and window opens nothing more.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api-types.js';
import type { AutoStatus } from '../../shared/auto-continue.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { freePort, mockLlmDir, startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { pathWithProjectNode, runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';
import { hasTmux } from '../../testing/agents/tmux-tui.js';

const GOAL = 'Teach the quillmarble importer to skip blank rows';

/** The provider whose plan limit is hit, on a free loopback port; resolves once it answers. */
async function startLimitMock(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(mockLlmDir(), 'limit-mock.js')], {
    cwd: mockLlmDir(),
    env: { ...process.env, LIMIT_PORT: String(port), LIMIT_LOG: path.join(dir, 'limit-requests.jsonl') },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (const end = Date.now() + 10_000; ; ) {
    const up = await new Promise<boolean>((resolve) => {
      http.get(`${url}/v1/models`, (res) => resolve(res.statusCode === 200)).on('error', () => resolve(false));
    });
    if (up) return { url, child };
    if (Date.now() > end) throw new Error('limit-mock.js did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The stand-in terminal: Baton runs `x-terminal-emulator -e sh -c <command>`; this logs the call and
 * runs the command in a tmux session on the test's own tmux server, where a TUI gets a real terminal.
 */
function writeStandInTerminal(binDir: string, log: string, socket: string): void {
  fs.mkdirSync(binDir, { recursive: true });
  const script = [
    '#!/bin/sh',
    `printf '%s\\t%s\\n' "$PWD" "$*" >> ${JSON.stringify(log)}`,
    '[ "$1" = "-e" ] && shift',
    `exec tmux -L ${socket} new-session -d -x 160 -y 45 -c "$PWD" "$@"`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(binDir, 'x-terminal-emulator'), script, { mode: 0o755 });
}

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 90_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; ; ) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('unattended continuation with the real Claude Code and Codex', () => {
  let claude: AgentCli;
  let codex: AgentCli;
  let tmp: string;
  let mock: MockLlm;
  let limit: { url: string; child: ChildProcess };
  let core: BatonCore;
  const socket = `baton-auto-${process.pid}`;
  const events: ApiEvent[] = [];

  beforeAll(async () => {
    [claude, codex] = await Promise.all([ensureAgentCli('claude'), ensureAgentCli('codex')]);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-auto-e2e-')));
    mock = await startMockLlm({ dir: tmp });
    limit = await startLimitMock(tmp);
  });
  afterAll(async () => {
    await core?.close();
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      /* no session was opened */
    }
    // Codex leaves an app-server daemon behind, outside the tmux session: end it by its pid (its command names this test's HOME).
    for (const pid of tmp ? fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)) : []) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.join(tmp, 'home', '.codex'))) process.kill(Number(pid), 'SIGKILL');
      } catch {
        /* gone, or not ours to read */
      }
    }
    limit?.child.kill('SIGTERM');
    await mock?.stop();
    if (tmp && !process.env.BATON_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('opens Codex with the brief when Claude Code hits its limit in a switched-on folder; nowhere else, and only once', async () => {
    requireCli(claude);
    requireCli(codex);
    expect(hasTmux(), 'tmux is needed for the stand-in terminal').toBe(true);
    const home = path.join(tmp, 'home');
    const project = path.join(tmp, 'project');
    const other = path.join(tmp, 'other');
    const dataDir = path.join(tmp, 'baton');
    const binDir = path.join(tmp, 'bin');
    const terminalLog = path.join(tmp, 'terminal.log');
    for (const dir of [home, path.join(project, 'src'), other]) fs.mkdirSync(dir, { recursive: true });
    writeStandInTerminal(binDir, terminalLog, socket);

    // Codex as the terminal will start it: talking to the scripted mock, the folder trusted and its
    // one-time model offer answered beforehand (what a user's config already says).
    const codexEnv = agentEnv('codex', home, mock.url);
    fs.appendFileSync(path.join(home, '.codex', 'config.toml'), `\n[projects."${project}"]\ntrust_level = "trusted"\n\n[notice.model_migrations]\n"gpt-5.5" = "gpt-6-sol"\n`);
    const claudeEnv = agentEnv('claude', home, limit.url);
    const batonEnv: NodeJS.ProcessEnv = {
      ...codexEnv,
      BATON_HOME: dataDir,
      BATON_TERMINAL: 'x-terminal-emulator',
      PATH: [binDir, path.dirname(codex.bin), pathWithProjectNode(process.env.PATH)].join(path.delimiter),
    };

    core = await createBatonCore({ environment: { env: batonEnv, platform: 'linux', home }, dataDir, ingest: 'inline', watch: true, log: () => {} });
    core.events.subscribe((e) => events.push(e));
    await core.start();
    await core.whenCurrent();

    const on = runBaton(['auto', 'on', path.join(project, '.'), '--to', 'codex', '--json'], { ...batonEnv, BATON_NO_SERVER: '1' });
    expect(on.code, on.stderr).toBe(0);
    expect((JSON.parse(on.stdout) as AutoStatus).rules).toEqual([expect.objectContaining({ folder: project, targets: ['codex'], when: ['limit'] })]);

    const limitHitOf = (cwd: string) => events.find((e) => e.type === 'limit-hit' && core.sources.reader.getSession(e.hit.session)?.cwd === cwd);

    // A folder not switched on: the hit is seen live, and nothing opens.
    const elsewhere = await runAgent({ bin: claude.bin, args: ['-p', 'Tidy the other importer', '--allowedTools', 'Bash,Read'], cwd: other, env: claudeEnv });
    expect(elsewhere.code).not.toBe(0);
    await until('the limit hit in the other folder', () => limitHitOf(other));

    // The switched-on folder (a session in its subfolder): Codex opens there with the brief.
    const blocked = await runAgent({ bin: claude.bin, args: ['-p', GOAL, '--allowedTools', 'Bash,Read'], cwd: path.join(project, 'src'), env: claudeEnv });
    expect(blocked.code).not.toBe(0);
    const run = await until('an auto-continue run', () => events.find((e): e is Extract<ApiEvent, { type: 'auto-continue' }> => e.type === 'auto-continue')?.run);
    expect(run, run.message).toMatchObject({ outcome: 'opened', target: 'codex', sourceAgent: 'claude', trigger: 'limit', folder: project });
    const launches = fs.readFileSync(terminalLog, 'utf8').trim().split('\n');
    expect(launches).toHaveLength(1);
    expect(launches[0]).toContain(`cd '${path.join(project, 'src')}' && codex "$(cat `);

    const first = await until('Codex asking the model with the brief', () =>
      mock.requests().find((r) => /\/responses/.test(r.url) && JSON.stringify(r.body).includes(GOAL)),
    );
    expect(JSON.stringify(first.body)).toContain(GOAL);

    // The handoff record says who carried on; `baton auto status` says what Baton did.
    expect(core.userData.getCheckpoint(run.checkpointId!)?.handoff).toMatchObject({ agent: 'codex', projectDir: path.join(project, 'src') });
    const status = runBaton(['auto', 'status', '--json'], { ...batonEnv, BATON_NO_SERVER: '1' });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as AutoStatus).runs).toEqual([expect.objectContaining({ id: run.id, outcome: 'opened', target: 'codex' })]);

    // A second hit in the same folder and window: seen, and nothing more opens.
    const seen = events.filter((e) => e.type === 'limit-hit').length;
    const again = await runAgent({ bin: claude.bin, args: ['-p', 'Try once more', '--continue', '--allowedTools', 'Bash,Read'], cwd: project, env: claudeEnv });
    expect(again.code).not.toBe(0);
    await until('the second limit hit', () => events.filter((e) => e.type === 'limit-hit').length > seen);
    // The watcher acts within a few hundred ms of a hit; give it ample time to (wrongly) act.
    await new Promise((r) => setTimeout(r, 3000));
    expect(fs.readFileSync(terminalLog, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'auto-continue')).toHaveLength(1);
  });
});
