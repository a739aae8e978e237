/**
 * Gemini CLI token usage as Baton reads it, against ccusage 20.0.24 (pinned, from npm) on the same
 * fixture store: the per-session numbers must agree. Baton's `input` is the uncached part of the
 * prompt and `reasoning` the thought tokens, so the comparison adds them back up the way ccusage
 * reports them (input incl. cache reads, output, total incl. thoughts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/model.js';
import { createGeminiAdapter } from '../../electron/core/sources/gemini/gemini-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';

const execFileAsync = promisify(execFile);

interface CcusageSession {
  sessionId: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalTokens: number;
}

describe('Gemini usage against ccusage', () => {
  let cli: AgentCli;
  let fx: FixtureHome;
  beforeAll(async () => {
    cli = await ensureAgentCli('ccusage');
    fx = makeFixtureHome();
  });
  afterAll(() => fx?.cleanup());

  it('agrees with ccusage gemini session on every fixture session', async () => {
    requireCli(cli);
    const { stdout } = await execFileAsync(cli.bin, ['gemini', 'session', '--json', '--offline'], {
      env: { HOME: fx.home, PATH: process.env.PATH, NO_COLOR: '1' },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const oracle = (JSON.parse(stdout) as { sessions: CcusageSession[] }).sessions;
    const adapter = createGeminiAdapter([path.join(fx.home, '.gemini')]);
    const baton = new Map<string, Session>();
    for (const unit of await adapter.listUnits()) {
      for await (const b of adapter.read(unit, { cursor: null, diagnostic: () => {} })) for (const s of b.sessions) baton.set(s.nativeId, s);
    }
    expect(oracle.map((o) => o.sessionId).sort()).toEqual([...baton.keys()].sort());
    for (const o of oracle) {
      const u = baton.get(o.sessionId)!.usage;
      expect({ id: o.sessionId, input: u.input + u.cacheRead, output: u.output, cacheRead: u.cacheRead, total: u.input + u.cacheRead + u.output + u.reasoning }).toEqual({
        id: o.sessionId,
        input: o.inputTokens,
        output: o.outputTokens,
        cacheRead: o.cacheReadTokens,
        total: o.totalTokens,
      });
    }
  });
});
