// A session's usage includes its subagents' requests (as ccusage counts them), the child's row still
// shows its own, and day, model and block totals count every request once: a real core over the
// fixture stores plus a Claude subagent made of real fixture lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnUsage, UsageTotals } from '../../../shared/usage.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { addClaudeSubagent } from '../../../testing/claude-subagent.js';
import { addClaudeResume, addCodexChild } from '../../../testing/child-sessions.js';
import { UsageReport } from './usage-report.js';
import { Pricing } from './pricing.js';

const PARENT = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';
const LINES_FROM = 'c75d225f-3b13-4226-8629-ef94923008cf';
const CODEX_PARENT = '01a20157-8fb3-7322-945b-a1cdd105bf9c';
const CODEX_LINES_FROM = '01a20157-94de-71d1-8e8d-ab66ac63d990';
const KEYS = ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'reasoningTokens', 'totalTokens', 'requests'] as const;
const tokens = (t: OwnUsage | UsageTotals) => Object.fromEntries(KEYS.map((k) => [k, t[k]]));
const sum = (rows: (OwnUsage | UsageTotals)[]) => Object.fromEntries(KEYS.map((k) => [k, rows.reduce((n, r) => n + r[k], 0)]));

describe('usage of a session with a subagent', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let report: UsageReport;
  let child: string;
  let resumed: string;
  let codexSub: string;
  let codexFork: string;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    child = addClaudeSubagent(fixture.home, PARENT, LINES_FROM).id;
    resumed = addClaudeResume(fixture.home, LINES_FROM, '1acd9001-6177-4eae-b40d-71af70d0b76c', '0d0d0d0d-1111-4222-8333-444444444444');
    codexSub = addCodexChild(fixture.home, 'subagent', CODEX_PARENT, CODEX_LINES_FROM, '01a20157-0000-7000-8000-00000000aaaa');
    codexFork = addCodexChild(fixture.home, 'fork', CODEX_PARENT, CODEX_LINES_FROM, '01a20157-0000-7000-8000-00000000bbbb');
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

  it('a resumed or forked session is counted on its own, a Codex subagent in its parent (parentKind)', () => {
    const reader = core.sources.reader;
    expect(reader.getSession(child)?.parentKind).toBe('subagent');
    expect(reader.getSession(resumed)).toMatchObject({ parentId: `claude:${LINES_FROM}`, parentKind: 'fork' });
    expect(reader.getSession(codexSub)).toMatchObject({ parentId: `codex:${CODEX_PARENT}`, parentKind: 'subagent' });
    expect(reader.getSession(codexFork)).toMatchObject({ parentId: `codex:${CODEX_PARENT}`, parentKind: 'fork' });

    const claude = report.bySession({ agent: 'claude' });
    const source = claude.find((r) => r.session === `claude:${LINES_FROM}`)!;
    const resume = claude.find((r) => r.session === resumed)!;
    expect(resume.own.requests).toBeGreaterThan(0);
    expect(source.subagents).toEqual([]);
    expect(tokens(source)).toEqual(tokens(source.own)); // the resume's requests are not the source's

    const codex = report.bySession({ agent: 'codex' });
    const parent = codex.find((r) => r.session === `codex:${CODEX_PARENT}`)!;
    const sub = codex.find((r) => r.session === codexSub)!;
    const fork = codex.find((r) => r.session === codexFork)!;
    expect(sub.own.requests).toBeGreaterThan(0);
    expect(fork.own.requests).toBeGreaterThan(0);
    expect(parent.subagents).toEqual([codexSub]);
    expect(tokens(parent)).toEqual(sum([parent.own, sub.own]));
  });

  it('day, model and block totals count every request once', () => {
    const own = sum(report.bySession().map((r) => r.own));
    expect(sum(report.byDay())).toEqual(own);
    expect(sum(report.byModel())).toEqual(own);
    expect(sum(report.byBlock())).toEqual(own);
  });
});
