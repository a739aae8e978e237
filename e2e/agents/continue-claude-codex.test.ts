/**
 * "Continue natively" with the real CLIs, offline against the mock LLM: a real Claude Code session
 * continued in Codex and a real Codex session continued in Claude Code (plus a fixture Gemini CLI
 * session into each). For each: `baton continue --json` names the session and its resume argv; the
 * target's own resume exits 0; its first model request carries the source's decision and latest
 * user turn and fits the model's window; the target's own "latest session here" lookup
 * (`codex exec resume --last`, `claude --continue`) picks the continued session; a second turn
 * appends to the same transcript; a repeat gives the same session; `--undo` removes exactly what
 * was written (Codex's threads row and session_index line included).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import { ensureAgentCli, requireCli, type AgentCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm, type MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';

const DECISION = 'We decided to keep the zebrafrost parser on tab separators only';
const LATEST = 'Next, make the quartzmoss exporter write CSV lastprobe';

type Agent = 'claude' | 'codex';
const WINDOW: Record<Agent, number> = { claude: 200_000, codex: 258_400 };

function modelRequests(mock: MockLlm, marker: string): MockRequest[] {
  return mock.requests().filter((r) => /\/(messages|responses)/.test(r.url) && JSON.stringify(r.body).includes(marker));
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function transcriptOf(agent: Agent, home: string, id: string): string {
  const root = agent === 'claude' ? path.join(home, '.claude', 'projects') : path.join(home, '.codex', 'sessions');
  const file = walk(root).find((f) => f.endsWith(`${id}.jsonl`));
  if (!file) throw new Error(`no ${agent} transcript for ${id}`);
  return file;
}

describe('baton continue with the real Claude Code and Codex', () => {
  let claude: AgentCli;
  let codex: AgentCli;
  let mock: MockLlm;
  let tmp: string;
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  /** Each CLI's config points at this run's mock; PATH holds both CLIs, as on a user's machine. */
  function envFor(agent: Agent): NodeJS.ProcessEnv {
    if (agent === 'codex') fs.rmSync(path.join(home, '.codex', 'config.toml'), { force: true });
    return { ...agentEnv(agent, home, mock.url), ...env };
  }

  beforeAll(async () => {
    [claude, codex] = await Promise.all([ensureAgentCli('claude'), ensureAgentCli('codex')]);
    requireCli(claude);
    requireCli(codex);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-continue-'));
    mock = await startMockLlm({ dir: tmp });
    home = path.join(tmp, 'home');
    project = path.join(tmp, 'project');
    fs.mkdirSync(project, { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(claude.bin, path.join(bin, 'claude'));
    fs.symlinkSync(codex.bin, path.join(bin, 'codex'));
    env = {
      BATON_HOME: path.join(tmp, 'baton'),
      BATON_NO_SERVER: '1',
      PATH: [path.dirname(process.execPath), bin, process.env.PATH].join(path.delimiter),
    };
    // A Gemini CLI session from the fixtures, as a third source (its recorded folder is elsewhere: --cwd).
    fs.cpSync('/work/shared/fixtures/home/.gemini', path.join(home, '.gemini'), { recursive: true });
  }, 600_000);
  afterAll(async () => {
    await mock?.stop();
    if (!process.env.BATON_KEEP_TMP && tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A two-turn source session in the real agent; returns its native id. */
  async function sourceSession(agent: Agent): Promise<string> {
    const cli = agent === 'claude' ? claude : codex;
    requireCli(cli);
    const e = envFor(agent);
    const first = await runAgent({ bin: cli.bin, args: promptArgs(agent, `${DECISION}. run \`echo ready\``), cwd: project, env: e });
    expect(first.code, first.stderr).toBe(0);
    const resume = agent === 'claude' ? ['-p', LATEST, '--continue'] : ['exec', '--skip-git-repo-check', 'resume', '--last', LATEST];
    const second = await runAgent({ bin: cli.bin, args: resume, cwd: project, env: e });
    expect(second.code, second.stderr).toBe(0);
    const files = walk(agent === 'claude' ? path.join(home, '.claude', 'projects') : path.join(home, '.codex', 'sessions')).filter((f) => f.endsWith('.jsonl'));
    const newest = files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]!;
    return /([0-9a-f-]{36})\.jsonl$/.exec(newest)![1]!;
  }

  /** Resumes the continued session the target's own way and checks what its model was sent. */
  async function resumeInTarget(target: Agent, id: string, expectInFirst: string[]): Promise<void> {
    const cli = target === 'claude' ? claude : codex;
    requireCli(cli);
    const e = envFor(target);
    const file = transcriptOf(target, home, id);
    const before = fs.readFileSync(file, 'utf8');
    mock.clear();
    // "The newest session in this folder", found by the target's own session list.
    const args = target === 'claude' ? ['-p', 'Where do we stand? secondprobe', '--continue'] : ['exec', '--skip-git-repo-check', 'resume', '--last', 'Where do we stand? secondprobe'];
    const run = await runAgent({ bin: cli.bin, args, cwd: project, env: e });
    expect(run.code, run.stderr).toBe(0);
    const [first] = modelRequests(mock, 'secondprobe');
    expect(first, 'the target sent no model request').toBeDefined();
    const body = JSON.stringify(first!.body);
    for (const text of expectInFirst) expect(body).toContain(text);
    expect(body).toContain('Continued from');
    expect(countTokens(body)).toBeLessThan(WINDOW[target]);
    // The same transcript grew (the picker's newest session here is the continued one).
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after).toContain('secondprobe');
    // A second turn appends normally and carries the first.
    mock.clear();
    const again = target === 'claude' ? ['-p', 'And then? thirdprobe', '--resume', id] : ['exec', '--skip-git-repo-check', 'resume', id, 'And then? thirdprobe'];
    const run2 = await runAgent({ bin: cli.bin, args: again, cwd: project, env: e });
    expect(run2.code, run2.stderr).toBe(0);
    const [third] = modelRequests(mock, 'thirdprobe');
    expect(JSON.stringify(third?.body)).toContain('secondprobe');
    expect(fs.readFileSync(file, 'utf8')).toContain('thirdprobe');
  }

  function continueInto(ref: string, target: Agent, extra: string[] = []): { session: string; resume: string[]; reused: boolean; warnings: string[] } {
    const r = runBaton(['continue', ref, '--in', target, '--json', ...extra], { ...envFor(target), HOME: home });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  it('Claude Code → Codex: resumable, listed, carries the history, appends; idempotent; undo removes exactly what was written', async () => {
    const source = await sourceSession('claude');
    // Codex has been used here before (as on a user's machine): its state db exists.
    requireCli(codex);
    const warm = await runAgent({ bin: codex.bin, args: promptArgs('codex', 'Say hello warmup.'), cwd: tmp, env: envFor('codex') });
    expect(warm.code, warm.stderr).toBe(0);
    const codexHome = path.join(home, '.codex');
    const db = fs.readdirSync(codexHome).find((n) => /^state_\d+\.sqlite$/.test(n));
    expect(db, 'Codex wrote no state db').toBeDefined();
    const indexBefore = fs.existsSync(path.join(codexHome, 'session_index.jsonl')) ? fs.readFileSync(path.join(codexHome, 'session_index.jsonl'), 'utf8') : null;
    const result = continueInto(`claude:${source}`, 'codex');
    expect(result.resume).toEqual(['codex', 'resume', result.session]);
    expect(result.warnings).toEqual([]);
    expect(continueInto(`claude:${source}`, 'codex')).toMatchObject({ session: result.session, reused: true });
    {
      const row = new Database(path.join(codexHome, db!), { readonly: true }).prepare('SELECT preview, archived, cwd FROM threads WHERE id = ?').get(result.session) as { preview: string; archived: number; cwd: string };
      expect(row).toMatchObject({ archived: 0, cwd: project });
      expect(row.preview).toMatch(/^Continued from Claude Code/);
    }
    await resumeInTarget('codex', result.session, [DECISION, LATEST]);

    const undo = runBaton(['continue', '--undo', result.session, '--json'], { ...envFor('codex'), HOME: home });
    expect(undo.code, undo.stderr).toBe(0);
    expect(walk(path.join(codexHome, 'sessions')).some((f) => f.includes(result.session))).toBe(false);
    expect(new Database(path.join(codexHome, db!), { readonly: true }).prepare('SELECT COUNT(*) AS n FROM threads WHERE id = ?').get(result.session)).toEqual({ n: 0 });
    const indexAfter = fs.existsSync(path.join(codexHome, 'session_index.jsonl')) ? fs.readFileSync(path.join(codexHome, 'session_index.jsonl'), 'utf8') : null;
    expect(indexAfter ?? '').not.toContain(result.session);
    if (indexBefore !== null) expect(indexAfter).toBe(indexBefore);
  }, 600_000);

  it('Codex → Claude Code: resumable with --resume and --continue, carries the history, appends', async () => {
    const source = await sourceSession('codex');
    const result = continueInto(`codex:${source}`, 'claude');
    expect(result.resume).toEqual(['claude', '--resume', result.session]);
    const file = transcriptOf('claude', home, result.session);
    expect(fs.readFileSync(file, 'utf8')).toContain('"entrypoint":"cli"');
    await resumeInTarget('claude', result.session, [DECISION, LATEST]);
  }, 600_000);

  it.each<Agent>(['claude', 'codex'])('a Gemini CLI fixture session → %s, in a folder given with --cwd', async (target) => {
    const list = runBaton(['list', '--agent', 'gemini', '--json'], { ...envFor(target), HOME: home });
    expect(list.code, list.stderr).toBe(0);
    const gemini = (JSON.parse(list.stdout) as { id: string; userTurns: number; firstPrompt: string | null }[]).filter((s) => s.userTurns > 0)[0]!;
    const result = continueInto(gemini.id, target, ['--cwd', project]);
    const written = fs.readFileSync(transcriptOf(target, home, result.session), 'utf8');
    expect(written).toContain('Continued from Gemini CLI');
    await resumeInTarget(target, result.session, ['Continued from Gemini CLI']);
  }, 600_000);
});
