/**
 * The live index against real agents: Baton watches a HOME in which no agent has run yet, then the
 * real Claude Code, Codex and OpenCode write sessions into it (one-shot runs, resumes, a branch
 * switch between turns). After each step the live index must become what a cold index of the same
 * files says, field by field (titles, turns, counts, sizes, branches, usage), message by message,
 * and hit by hit for searches. The reconcile is switched off: only the watcher can bring news.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveIndex } from '../../electron/core/index/live-index.js';
import { SEQ_SPAN } from '../../electron/core/index/index-schema.js';
import { SessionIndex } from '../../electron/core/index/session-index.js';
import { allAgentsConfig, environmentOf } from '../../electron/core/index/test-support.js';
import { createAdapters } from '../../electron/core/sources/registry.js';
import { ensureAgentCli, type AgentCli } from './support/agent-clis.js';
import { agentEnv, promptArgs } from './support/agent-home.js';
import { startMockLlm, type MockLlm } from './support/mock-llm.js';
import { runAgent, type AgentRun } from './support/run-agent.js';

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
  let live: LiveIndex | null = null;
  const clis = new Map<Agent, AgentCli>();
  const words: string[] = [];

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
    await live?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const adapters = () => createAdapters(allAgentsConfig(), environmentOf({ HOME: home }));
  const liveDir = () => path.join(tmp, 'baton-live');

  /** A cold `baton index` of the same files, in its own data dir. */
  async function coldSnapshot(): Promise<Snapshot> {
    const dir = path.join(tmp, `baton-cold-${Date.now()}`);
    const cold = new LiveIndex({ dataDir: dir, adapters: adapters(), watch: false });
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

  it('starts with no agent store at all, then indexes each store as it appears, resumes and branch switches included', async (ctx) => {
    const missing = [...clis.values()].filter((c) => !c.ok);
    if (missing.length) return ctx.skip(missing.map((c) => (c.ok ? '' : c.skip)).join('; '));
    // Claude Code's harness home makes ~/.claude: a first-time user has none until the first run.
    agentEnv('claude', home, mock.url);
    fs.rmSync(path.join(home, '.claude'), { recursive: true, force: true });
    expect(adapters().flatMap((a) => a.roots()).filter((r) => fs.existsSync(r))).toEqual([]);

    live = new LiveIndex({ dataDir: liveDir(), adapters: adapters(), debounceMs: 50, reconcileMs: 3_600_000 });
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
    // How fast each new store was seen (reported, not asserted: timing belongs to bench/).
    console.log(`first session searchable after the agent exited: claude ${claude.ms} ms, codex ${codex.ms} ms, opencode ${opencode.ms} ms`);
  });
});
