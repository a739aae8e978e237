// A session's usage includes its subagents' requests (as ccusage counts them), the child's row still
// shows its own, and day, model and block totals count every request once: a real core over the
// fixture stores plus a Claude subagent made of real fixture lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnUsage, UsageTotals } from '../../../shared/usage.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { addClaudeSubagent } from '../../../testing/claude-subagent.js';
import { UsageReport } from './usage-report.js';
import { Pricing } from './pricing.js';

const PARENT = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';
const LINES_FROM = 'c75d225f-3b13-4226-8629-ef94923008cf';
const KEYS = ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'reasoningTokens', 'totalTokens', 'requests'] as const;
const tokens = (t: OwnUsage | UsageTotals) => Object.fromEntries(KEYS.map((k) => [k, t[k]]));
const sum = (rows: (OwnUsage | UsageTotals)[]) => Object.fromEntries(KEYS.map((k) => [k, rows.reduce((n, r) => n + r[k], 0)]));

describe('usage of a session with a subagent', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let report: UsageReport;
  let child: string;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    child = addClaudeSubagent(fixture.home, PARENT, LINES_FROM).id;
    core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir: fixture.env.BATON_HOME, ingest: 'inline', watch: false, log: () => undefined });
    await core.start();
    await core.whenCurrent();
    report = new UsageReport(core.sources.reader.db, new Pricing());
  });
  afterAll(async () => {
    await core?.close();
    fixture?.cleanup();
  });

  it("the parent's total is its own requests plus its subagent's; the child's row shows its own", () => {
    expect(core.sources.reader.getSession(child)?.parentId).toBe(`claude:${PARENT}`);
    const rows = report.bySession({ agent: 'claude' });
    const parent = rows.find((r) => r.session === `claude:${PARENT}`)!;
    const sub = rows.find((r) => r.session === child)!;
    const lender = rows.find((r) => r.session === `claude:${LINES_FROM}`)!;
    expect(sub.own.requests).toBeGreaterThan(0);
    expect(tokens(sub)).toEqual(tokens(lender)); // the child's own requests are the lines it was made of
    expect(tokens(sub.own)).toEqual(tokens(sub));
    expect(parent.subagents).toEqual([child]);
    expect(tokens(parent)).toEqual(sum([parent.own, sub.own]));
    expect(parent.inputTokens).toBeGreaterThan(parent.own.inputTokens);
    expect(parent.costUSD).toBeCloseTo((parent.own.costUSD ?? 0) + (sub.own.costUSD ?? 0), 9);
  });

  it('one session asked for (usage_summary, `--by session` of one) includes its subagent too', () => {
    const [one] = report.bySession({ sessionId: `claude:${PARENT}` });
    const all = report.bySession({ agent: 'claude' }).find((r) => r.session === `claude:${PARENT}`)!;
    expect(report.bySession({ sessionId: `claude:${PARENT}` })).toHaveLength(1);
    expect(tokens(one!)).toEqual(tokens(all));
    expect(report.summary({ sessionId: `claude:${PARENT}`, agents: ['claude'] }).session?.totalTokens).toBe(all.totalTokens);
  });

  it('day, model and block totals count every request once', () => {
    const own = sum(report.bySession().map((r) => r.own));
    expect(sum(report.byDay())).toEqual(own);
    expect(sum(report.byModel())).toEqual(own);
    expect(sum(report.byBlock())).toEqual(own);
  });
});
