/**
 * ccusage (pinned, from npm) as the oracle for pi usage: Baton's per-session tokens and pi's own USD
 * cost must equal ccusage's on the fixture store, with one deliberate difference: a `--fork` file
 * copies every entry of its source, and ccusage counts those copied responses again in the fork,
 * while Baton counts them once (in the source).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/model.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { createPiAdapter } from '../../electron/core/sources/pi/pi-adapter.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';

const run = promisify(execFile);
const FORK = '01a20eb0-ed27-774c-bfba-4536f30b8477';
const FORK_SOURCE = '01a20eae-b8dd-7715-8f92-53b34506f09f';

interface CcusageSession {
  sessionId: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalCost: number;
}

describe('pi usage against ccusage', () => {
  let fx: FixtureHome;
  beforeAll(() => {
    fx = makeFixtureHome();
  });
  afterAll(() => fx.cleanup());

  it('matches ccusage per session; a fork counts only its own responses', async () => {
    const cli = await ensureAgentCli('ccusage');
    requireCli(cli);
    const sessionsDir = path.join(fx.home, '.pi', 'agent', 'sessions');
    const { stdout } = await run(cli.bin, ['pi', 'session', '--json', '--offline', '--pi-path', sessionsDir], {
      env: { PATH: process.env.PATH, HOME: fx.home },
      timeout: 120_000,
    });
    const oracle = new Map((JSON.parse(stdout) as { sessions: CcusageSession[] }).sessions.map((s) => [s.sessionId, s]));

    const adapter = createPiAdapter([sessionsDir]);
    const ours = new Map<string, Session>();
    for (const unit of await adapter.listUnits()) {
      for await (const b of adapter.read(unit, { cursor: null, diagnostic: () => {} })) for (const s of b.sessions) ours.set(s.nativeId, s);
    }
    expect(ours.size).toBe(11);
    expect([...oracle.keys()].sort()).toEqual([...ours.keys()].sort());

    const tokens = (c: CcusageSession) => ({ input: c.inputTokens, output: c.outputTokens, cacheRead: c.cacheReadTokens, cacheWrite: c.cacheCreationTokens });
    for (const [id, s] of ours) {
      const c = oracle.get(id)!;
      let want = tokens(c);
      let cost = c.totalCost;
      if (id === FORK) {
        // The deliberate difference: ccusage counts the fork's copy of its source again.
        const src = oracle.get(FORK_SOURCE)!;
        const copied = tokens(src);
        want = { input: want.input - copied.input, output: want.output - copied.output, cacheRead: want.cacheRead - copied.cacheRead, cacheWrite: want.cacheWrite - copied.cacheWrite };
        cost -= src.totalCost;
        expect(want.output, 'the fork has responses of its own').toBeGreaterThan(0);
      }
      expect({ id, ...s.usage, costUsd: undefined }).toEqual({ id, ...want, reasoning: 0, costUsd: undefined });
      expect(s.usage.costUsd ?? 0, id).toBeCloseTo(cost, 9);
    }
  }, 300_000);
});
