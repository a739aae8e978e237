/**
 * ccusage is the independent oracle for token counts: `ccusage session --json --offline` over the
 * same home must give, session by session, the input, output, cache-read and cache-creation tokens
 * that `baton usage --by session --json` reports. Over the real fixture stores and over a generated
 * corpus shaped like them. ccusage 20.0.24 is pinned (20.0.26's Linux binary is missing from npm).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusSpec, ensureCorpus } from '../../bench/corpus.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { addClaudeSubagent } from '../../testing/claude-subagent.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

/** The agents whose stores Baton reads; each must agree with ccusage on every one of its sessions. */
const READ_AGENTS = ['claude', 'codex', 'opencode', 'hermes', 'kilo', 'copilot', 'droid'] as const;
/**
 * Agents whose ccusage rows hold each session's own requests only (a subagent is its own session
 * there); Baton's row adds its subagents', so `own` is compared.
 */
const OWN_ONLY: ReadonlySet<string> = new Set(['kilo', 'droid']);
const SUBAGENT_PARENT = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';
const SUBAGENT_LINES_FROM = 'c75d225f-3b13-4226-8629-ef94923008cf';

interface CcusageSession {
  agent: string;
  period: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

interface BatonSessionUsage {
  session: string;
  agent: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  costUSD: number | null;
  models: string[];
  own: { inputTokens: number; totalTokens: number };
  subagents: string[];
}

/** ccusage names a session by its file's relative path (Codex) or its id: the native id is the tail. */
function nativeIdOf(c: CcusageSession): string {
  const last = c.period.split('/').at(-1) ?? c.period;
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(last);
  return c.agent === 'codex' && uuid ? uuid[1]! : last;
}

async function compare(env: NodeJS.ProcessEnv, cc: AgentCli & { ok: true }): Promise<{ compared: number; baton: Map<string, BatonSessionUsage> }> {
  const [{ stdout: ccOut }, { stdout: batonOut }] = await Promise.all([
    run(cc.bin, ['session', '--json', '--offline'], { env, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }),
    run(process.execPath, [bin, 'usage', '--by', 'session', '--json'], { env: { ...env, BATON_NO_SERVER: '1' }, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }),
  ]);
  const oracle = (JSON.parse(ccOut) as { session: CcusageSession[] }).session.filter((s) => (READ_AGENTS as readonly string[]).includes(s.agent));
  const baton = new Map((JSON.parse(batonOut) as BatonSessionUsage[]).map((s) => [s.session, s]));
  expect(oracle.length).toBeGreaterThan(0);
  for (const want of oracle) {
    const id = `${want.agent}:${nativeIdOf(want)}`;
    const got = baton.get(id);
    expect(got, `Baton has no usage for ${id}`).toBeDefined();
    if (OWN_ONLY.has(want.agent)) {
      // ccusage counts a Kilo subagent's requests in the child's own session; Baton's row adds them to the parent's.
      const total = want.inputTokens + want.outputTokens + want.cacheReadTokens + want.cacheCreationTokens;
      expect({ id, input: got!.own.inputTokens, total: got!.own.totalTokens }).toEqual({ id, input: want.inputTokens, total });
      const rest = want.outputTokens + want.cacheReadTokens + want.cacheCreationTokens;
      expect({ id, input: got!.own.inputTokens, rest: got!.own.totalTokens - got!.own.inputTokens }).toEqual({ id, input: want.inputTokens, rest });
      continue;
    }
    expect({ id, input: got!.inputTokens, output: got!.outputTokens, cacheRead: got!.cacheReadTokens, cacheCreation: got!.cacheCreationTokens }).toEqual({
      id,
      input: want.inputTokens,
      output: want.outputTokens,
      cacheRead: want.cacheReadTokens,
      cacheCreation: want.cacheCreationTokens,
    });
  }
  for (const s of baton.values()) {
    expect(s.totalTokens).toBe(s.inputTokens + s.outputTokens + s.cacheReadTokens + s.cacheCreationTokens);
    expect(s.costUSD === null || s.costUSD >= 0).toBe(true);
  }
  return { compared: oracle.length, baton };
}

describe('token usage equals ccusage, session by session', () => {
  let cc: AgentCli;
  let fixture: FixtureHome;
  let corpusRoot: string;
  let subagent: string;

  beforeAll(async () => {
    cc = await ensureAgentCli('ccusage');
    fixture = makeFixtureHome();
    // A Claude session that ran a subagent: ccusage counts the child's requests in the parent's session.
    subagent = addClaudeSubagent(fixture.home, SUBAGENT_PARENT, SUBAGENT_LINES_FROM).id;
    corpusRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-usage-corpus-'));
  });
  afterAll(() => {
    fixture?.cleanup();
    fs.rmSync(corpusRoot, { recursive: true, force: true });
  });

  it('over the real fixture stores', async () => {
    requireCli(cc);
    const { compared, baton } = await compare(fixture.env, cc);
    expect(compared).toBeGreaterThanOrEqual(19);
    // Kilo Code's sessions (kilo.db) agree too, every one of them.
    expect([...baton.keys()].filter((id) => id.startsWith('kilo:'))).toHaveLength(10);
    expect(compared).toBeGreaterThanOrEqual(19 + 9 + 11); // the 9 Copilot CLI and 11 Droid sessions among them
    expect([...baton.keys()].filter((id) => id.startsWith('copilot:'))).toHaveLength(9);
    expect([...baton.keys()].filter((id) => id.startsWith('droid:'))).toHaveLength(11);
    // The parent agreed with ccusage above only by including its subagent; the child's row shows its own.
    const parent = baton.get(`claude:${SUBAGENT_PARENT}`)!;
    const child = baton.get(subagent)!;
    expect(parent.subagents).toEqual([subagent]);
    expect(child.own.inputTokens).toBeGreaterThan(0);
    expect(parent.inputTokens).toBe(parent.own.inputTokens + child.own.inputTokens);
  });

  it('over a generated corpus shaped like them', async () => {
    requireCli(cc);
    const manifest = ensureCorpus(corpusSpec(0.01), { root: corpusRoot, log: () => undefined });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: manifest.home, BATON_HOME: path.join(corpusRoot, 'baton') };
    for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'CODEX_SQLITE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME']) delete env[k];
    expect((await compare(env, cc)).compared).toBeGreaterThan(50);
  });
});
