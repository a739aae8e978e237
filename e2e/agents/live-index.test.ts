/**
 * The live index against real agents: Baton watches a HOME in which no agent has run yet, then the
 * real Claude Code, Codex and OpenCode write sessions into it (one-shot runs, resumes, a branch
 * switch between turns, the TUIs: an exit, renames). After each step the live index must become what a cold index of the same
 * files says, field by field (titles, turns, counts, sizes, branches, usage), message by message,
 * and hit by hit for searches. The reconcile is switched off: only the watcher can bring news.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexWriteLoop } from '../../electron/core/ingest/index-write-loop.js';
import { SEQ_SPAN } from '../../electron/core/index/index-schema.js';
import { SessionIndex } from '../../electron/core/index/session-index.js';
import { allAgentsConfig, environmentOf } from '../../testing/index-support.js';
import { createAdapters } from '../../electron/core/ingest/registry.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent, type AgentRun } from '../../testing/agents/run-agent.js';
import { hasTmux, startTui, type Tui } from '../../testing/agents/tmux-tui.js';

type Agent = 'claude' | 'codex' | 'opencode';

/** Everything the index says, in a form two indexes can be compared by. */
interface Snapshot {
  sessions: Record<string, unknown>[];
  messages: string[];
  hits: Record<string, string[]>;
}

function snapshot(dataDir: string, words: string[]): Snapshot {
  const db = new Database(path.join(dataDir, 'index.db'), { readonly: true });
  try {
    const sessions = db
      .prepare(`SELECT id, agent, native_id, title, cwd, git_branch, git_commit, model, started_at, updated_at, first_prompt,
          user_turns, message_count, tool_names, usage, parent_id, source_path, bytes, source_gone FROM sessions ORDER BY id`)
      .all() as Record<string, unknown>[];
    const messages = (
      db
        .prepare(`SELECT s.id AS sid, m.id - s.rowid * ${SEQ_SPAN} AS seq, m.role, m.kind, m.tool_name, m.is_error, m.timestamp, m.text
          FROM messages m JOIN sessions s ON m.id >= s.rowid * ${SEQ_SPAN} AND m.id < (s.rowid + 1) * ${SEQ_SPAN}`)
        .all() as Record<string, unknown>[]
    )
      .map((m) => JSON.stringify([m.sid, m.seq, m.role, m.kind, m.tool_name, m.is_error, m.timestamp, m.text]))
      .sort();
    const index = new SessionIndex(dataDir);
    try {
      // Ranks favour recent rowids, which differ between a live and a cold index: hits compare as sets.
      const hits = Object.fromEntries(words.map((w) => [w, index.search(w, { limit: 200 }).map((h) => `${h.sessionId}#${h.seq}`).sort()]));
      return { sessions, messages, hits };
    } finally {
      index.close();
    }
  } finally {
    db.close();
  }
}

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

describe('live index under real agents equals a cold index of the same files', () => {
  let tmp: string;
  let home: string;
  let project: string;
  let mock: MockLlm;
  let live: IndexWriteLoop | null = null;
  const clis = new Map<Agent, AgentCli>();
  const words: string[] = [];
  const tuis: Tui[] = [];
  /** Native ids of the sessions the first test made (the second goes on from them). */
  const made: Partial<Record<Agent, string>> = {};

  beforeAll(async () => {
    for (const agent of ['claude', 'codex', 'opencode'] as const) clis.set(agent, await ensureAgentCli(agent));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-live-agents-'));
    home = path.join(tmp, 'home');
    project = path.join(home, 'project');
    fs.mkdirSync(project, { recursive: true });
    git(project, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(project, 'README.md'), '# demo\n');
    git(project, 'add', '.');
    git(project, 'commit', '-q', '-m', 'init');
    mock = await startMockLlm({ dir: tmp });
  });
  afterAll(async () => {
    for (const t of tuis) t.stop();
    stopCodexDaemon();
    await live?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * Codex 0.169's TUI leaves an app-server daemon behind: stopped the way Codex says, then whatever
   * of it still runs from this test's CODEX_HOME is ended by pid.
   */
  function stopCodexDaemon(): void {
    const cli = clis.get('codex');
    if (!cli?.ok || !home || !fs.existsSync(path.join(home, '.codex', 'app-server-control'))) return;
    try {
      execFileSync(cli.bin, ['app-server', 'daemon', 'stop'], { env: agentEnv('codex', home, mock.url), cwd: project, stdio: 'ignore', timeout: 30_000 });
    } catch {
      /* not running */
    }
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let cmd: string;
      try {
        cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (cmd.includes(path.join(home, '.codex'))) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  }

  function tui(agent: Agent, args: string[]): Tui {
    const cli = clis.get(agent)!;
    if (!cli.ok) throw new Error(cli.skip);
    const t = startTui({ bin: cli.bin, args, cwd: project, env: agentEnv(agent, home, mock.url) });
    tuis.push(t);
    return t;
  }

  /** Codex's TUI, past its one-time model offer, ready for a prompt. */
  async function codexTui(args: string[]): Promise<Tui> {
    agentEnv('codex', home, mock.url);
    // The folder-trust question (the project is a git repo), answered beforehand in Codex's config.
    const config = path.join(home, '.codex', 'config.toml');
    // Also the one-time model offer (what choosing "Use existing model" writes).
    const trust = `[projects."${project}"]\ntrust_level = "trusted"\n\n[notice.model_migrations]\n"gpt-5.5" = "gpt-6-sol"\n`;
    if (!fs.readFileSync(config, 'utf8').includes(trust)) fs.appendFileSync(config, `\n${trust}`);
    const t = tui('codex', args);
    // The model offer may show a moment after the prompt did: ready once the prompt stays up for 2 s.
    let steady = 0;
    for (const end = Date.now() + 60_000; steady < 10; ) {
      if (Date.now() > end) throw new Error(`Codex TUI never became ready; last screen:\n${t.screen()}`);
      const s = t.screen();
      if (/Try new model/.test(s)) {
        steady = 0;
        t.keys('Down');
        await new Promise((r) => setTimeout(r, 300));
        t.keys('Enter');
      } else steady = /for shortcuts/.test(s) ? steady + 1 : 0;
      await new Promise((r) => setTimeout(r, 200));
    }
    return t;
  }

  /** Types a line into a TUI once it shows the text typed (a TUI still starting drops keys), then Enter. */
  async function submit(t: Tui, text: string): Promise<void> {
    const shown = new RegExp(text.slice(0, 40).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    for (let attempt = 0; ; attempt++) {
      t.type(text);
      try {
        await t.waitFor(shown, 5_000);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
        t.keys('C-u'); // clear whatever part arrived, then type again
      }
    }
    t.keys('Enter');
  }

  function liveTitle(id: string): string | null {
    const index = new SessionIndex(liveDir());
    try {
      return index.getSession(id)?.title ?? null;
    } finally {
      index.close();
    }
  }

  const adapters = () => createAdapters(allAgentsConfig(), environmentOf({ HOME: home }));
  const liveDir = () => path.join(tmp, 'baton-live');

  /** A cold `baton index` of the same files, in its own data dir. */
  async function coldSnapshot(): Promise<Snapshot> {
    const dir = path.join(tmp, `baton-cold-${Date.now()}`);
    const cold = new IndexWriteLoop({ dataDir: dir, adapters: adapters(), watch: false });
    await cold.start();
    await cold.close();
    const snap = snapshot(dir, words);
    fs.rmSync(dir, { recursive: true, force: true });
    return snap;
  }

  /** Live must become equal to cold (both read after the agent exited); the last difference is shown on failure. */
  async function expectLiveEqualsCold(step: string): Promise<void> {
    const cold = await coldSnapshot();
    let last: Snapshot | null = null;
    try {
      await until(`${step}: live index equal to the cold one`, () => {
        last = snapshot(liveDir(), words);
        return JSON.stringify(last) === JSON.stringify(cold);
      }, 20_000);
    } catch {
      expect(last, step).toEqual(cold);
    }
  }

  async function run(agent: Agent, args: string[]): Promise<AgentRun> {
    const cli = clis.get(agent)!;
    if (!cli.ok) throw new Error(cli.skip);
    const r = await runAgent({ bin: cli.bin, args, cwd: project, env: agentEnv(agent, home, mock.url), timeoutMs: 180_000 });
    expect(r.timedOut, `${agent} timed out:\n${r.stdout}\n${r.stderr}`).toBe(false);
    expect(r.code, `${agent} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  }

  /** The session the rare word was said in, once the live index (watcher only) has it. */
  async function searchable(word: string): Promise<{ nativeId: string; ms: number }> {
    const started = Date.now();
    const index = new SessionIndex(liveDir());
    try {
      const hit = await until(`"${word}" searchable in the live index`, () => index.search(word)[0], 20_000);
      return { nativeId: hit.nativeId, ms: Date.now() - started };
    } finally {
      index.close();
    }
  }

  it('starts with no agent store at all, then indexes each store as it appears, resumes and branch switches included', async () => {
    const missing = [...clis.values()].filter((c) => !c.ok);
    for (const c of missing) requireCli(c);
    // Claude Code's harness home makes ~/.claude: a first-time user has none until the first run.
    agentEnv('claude', home, mock.url);
    fs.rmSync(path.join(home, '.claude'), { recursive: true, force: true });
    expect(adapters().flatMap((a) => a.roots()).filter((r) => fs.existsSync(r))).toEqual([]);

    live = new IndexWriteLoop({ dataDir: liveDir(), adapters: adapters(), debounceMs: 50, reconcileMs: 3_600_000 });
    await live.start(); // never resolved before: chokidar emits no 'ready' for an empty list of roots
    expect(live.sync.progress().phase).toBe('watching');

    words.push('quillwortclaude');
    await run('claude', promptArgs('claude', 'Say hello quillwortclaude and run `ls`.'));
    const claude = await searchable('quillwortclaude');
    await expectLiveEqualsCold('claude -p into a store that did not exist');

    words.push('quillwortcodex');
    await run('codex', promptArgs('codex', 'Say hello quillwortcodex and run `ls`.'));
    const codex = await searchable('quillwortcodex');
    await expectLiveEqualsCold('codex exec into a new CODEX_HOME');

    words.push('quillwortopencode');
    await run('opencode', promptArgs('opencode', 'Say hello quillwortopencode and run `ls`.'));
    const opencode = await searchable('quillwortopencode');
    await expectLiveEqualsCold('opencode run into a new data dir');

    // A branch switch between turns, then a resumed turn in each agent.
    git(project, 'checkout', '-q', '-b', 'feature/resume');
    words.push('resumedclaude', 'resumedcodex', 'resumedopencode');
    await run('claude', ['-p', 'Now say resumedclaude and read `README.md`.', '--resume', claude.nativeId, '--allowedTools', 'Bash,Read,Write,Edit']);
    await run('codex', ['exec', '--skip-git-repo-check', 'resume', codex.nativeId, 'Now say resumedcodex.']);
    await run('opencode', ['run', '--session', opencode.nativeId, 'Now say resumedopencode.']);
    for (const w of ['resumedclaude', 'resumedcodex', 'resumedopencode']) await searchable(w);
    await expectLiveEqualsCold('a resumed turn in each agent after a branch switch');

    const index = new SessionIndex(liveDir());
    try {
      expect(index.getSession(`claude:${claude.nativeId}`)?.userTurns).toBe(2);
      expect(index.getSession(`codex:${codex.nativeId}`)?.userTurns).toBe(2);
      expect(index.getSession(`opencode:${opencode.nativeId}`)?.userTurns).toBe(2);
      // Each session's size is its file's (Claude writes lines that add no message at the end).
      const s = index.getSession(`claude:${claude.nativeId}`)!;
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
    } finally {
      index.close();
    }
    made.claude = claude.nativeId;
    made.codex = codex.nativeId;
    made.opencode = opencode.nativeId;
    // How fast each new store was seen (reported, not asserted: timing belongs to bench/).
    console.log(`first session searchable after the agent exited: claude ${claude.ms} ms, codex ${codex.ms} ms, opencode ${opencode.ms} ms`);
  });

  it('TUIs: Claude Code writes lines that add no message at exit; Codex and OpenCode renames show while watching, and after a restart', async () => {
    expect(live && made.codex, 'needs the sessions of the previous test').toBeTruthy();
    if (!live || !made.codex) return;
    expect(hasTmux(), 'tmux is not installed (.ci/run installs it with apt-get)').toBe(true);

    // Claude Code's TUI: one turn, then /exit (which appends cost-state, file-history-snapshot…).
    // The folder-trust question, answered beforehand where Claude Code keeps the answer.
    const state = path.join(home, '.claude.json');
    const json = JSON.parse(fs.readFileSync(state, 'utf8')) as { projects?: Record<string, Record<string, unknown>> };
    json.projects = { ...json.projects, [project]: { ...json.projects?.[project], hasTrustDialogAccepted: true } };
    fs.writeFileSync(state, JSON.stringify(json, null, 2));
    const claude = tui('claude', []);
    await claude.waitFor(/shift\+tab/);
    words.push('tuiclaudeword');
    await submit(claude, 'Say hello tuiclaudeword.');
    const { nativeId: claudeId } = await searchable('tuiclaudeword');
    await claude.waitFor(/Let me know/);
    await submit(claude, '/exit');
    await claude.waitExit();
    await expectLiveEqualsCold('Claude Code TUI exit');
    const index = new SessionIndex(liveDir());
    try {
      const s = index.getSession(`claude:${claudeId}`)!;
      expect(s.bytes).toBe(fs.statSync(s.sourcePath).size);
    } finally {
      index.close();
    }

    // Codex's TUI: a turn, then /rename, which writes session_index.jsonl and threads.name only.
    const codex = await codexTui([]);
    words.push('tuicodexword');
    await submit(codex, 'Say hello tuicodexword.');
    const { nativeId: codexId } = await searchable('tuicodexword').catch((err: Error) => {
      const files = fs.readdirSync(path.join(home, '.codex', 'sessions'), { recursive: true });
      throw new Error(`${err.message}\nrollouts: ${files.join(', ')}\nscreen:\n${codex.screen()}`);
    });
    await codex.waitFor(/Worked for/);
    await submit(codex, '/rename Renamed in the Codex TUI');
    await until('the Codex rename in the live index', () => liveTitle(`codex:${codexId}`) === 'Renamed in the Codex TUI', 20_000);
    await submit(codex, '/quit');
    await codex.waitExit();
    codex.stop();
    stopCodexDaemon();
    await expectLiveEqualsCold('Codex TUI /rename');

    // OpenCode's TUI: a turn, then "Rename session" from the command palette, which rewrites
    // session.title and leaves time_updated alone.
    const oc = tui('opencode', []);
    await oc.waitFor(/Ask anything/, 120_000);
    words.push('tuiopencodeword');
    await submit(oc, 'Say hello tuiopencodeword.');
    const { nativeId: ocId } = await searchable('tuiopencodeword');
    await oc.waitFor(/Let me know/, 60_000);
    oc.keys('C-p');
    await oc.waitFor(/Commands/);
    oc.type('rename');
    await oc.waitFor(/Rename session/);
    oc.keys('Enter');
    await oc.waitFor(/Rename Session/);
    for (let i = 0; i < 80; i++) oc.keys('BSpace'); // the field starts with the current title
    await submit(oc, 'Renamed in the OpenCode TUI');
    await until('the OpenCode rename in the live index', () => liveTitle(`opencode:${ocId}`) === 'Renamed in the OpenCode TUI', 20_000);
    oc.stop();
    await expectLiveEqualsCold('OpenCode TUI rename');

    // Renamed again while Baton is not running: seen at the next start, without a rebuild.
    await live.close();
    live = null;
    const again = await codexTui(['resume', codexId]);
    await submit(again, '/rename Renamed while Baton was down');
    const names = path.join(home, '.codex', 'session_index.jsonl');
    await until('the rename written by Codex', () => fs.readFileSync(names, 'utf8').includes('Renamed while Baton was down'), 20_000);
    await submit(again, '/quit');
    await again.waitExit();
    again.stop();
    stopCodexDaemon();
    live = new IndexWriteLoop({ dataDir: liveDir(), adapters: adapters(), debounceMs: 50, reconcileMs: 3_600_000 });
    await live.start();
    expect(liveTitle(`codex:${codexId}`)).toBe('Renamed while Baton was down');
    await expectLiveEqualsCold('restart after a rename made while Baton was down');
  });
});
