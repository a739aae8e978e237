// Usage at ingest, reported: the real fixture stores plus records shaped exactly as the format
// reference shows them (Codex rate limits, a rate-limits-only event, Claude's and Codex's
// limit-reached lines), indexed by a real core into a real SQLite index.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';

const CODEX_ID = '01a20157-94de-71d1-8e8d-ab66ac63d990';
const CLAUDE_ID = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';

function findFile(root: string, part: string): string {
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.includes(part) && entry.name.endsWith('.jsonl')) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no file with ${part} under ${root}`);
}

describe('usage report', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const now = Date.now();
  const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  const resetEpoch = Math.floor((now + 2 * 3_600_000) / 1000);

  beforeAll(async () => {
    fixture = makeFixtureHome();
    const codexFile = findFile(path.join(fixture.home, '.codex', 'sessions'), CODEX_ID);
    fs.appendFileSync(
      codexFile,
      [
        // The reference's token_count line, verbatim but for its timestamp.
        `{"timestamp":"${iso(-60_000)}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":48210,"cached_input_tokens":40960,"output_tokens":1311,"reasoning_output_tokens":640,"total_tokens":49521},"last_token_usage":{"input_tokens":9120,"cached_input_tokens":8704,"output_tokens":212,"reasoning_output_tokens":128,"total_tokens":9332},"model_context_window":272000},"rate_limits":{"primary":{"used_percent":12.0,"window_minutes":300,"resets_at":1772460000},"secondary":null}}}`,
        // Repeated as Codex does when nothing changed: the same request, counted once.
        `{"timestamp":"${iso(-59_000)}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":48210,"cached_input_tokens":40960,"output_tokens":1311,"reasoning_output_tokens":640,"total_tokens":49521},"last_token_usage":{"input_tokens":9120,"cached_input_tokens":8704,"output_tokens":212,"reasoning_output_tokens":128,"total_tokens":9332},"model_context_window":272000},"rate_limits":{"primary":{"used_percent":12.0,"window_minutes":300,"resets_at":1772460000},"secondary":null}}}`,
        // `info` null: only the rate limits.
        `{"timestamp":"${iso(-30_000)}","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":97.5,"window_minutes":300,"resets_at":${resetEpoch}},"secondary":{"used_percent":41.0,"window_minutes":10080,"resets_at":${resetEpoch + 86_400}}}}}`,
        '',
      ].join('\n'),
    );
    const claudeFile = findFile(path.join(fixture.home, '.claude', 'projects'), CLAUDE_ID);
    fs.appendFileSync(
      claudeFile,
      `{"parentUuid":null,"isSidechain":false,"type":"assistant","uuid":"0b9d1c2e-0000-4000-8000-000000000001","timestamp":"${iso(-10_000)}","sessionId":"${CLAUDE_ID}","cwd":"/home/ana/projects/demo-app","message":{"id":"msg_limit","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"Claude AI usage limit reached|${resetEpoch}"}],"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"isApiErrorMessage":true}\n`,
    );
    core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir: fixture.env.BATON_HOME, ingest: 'inline', watch: false, log: () => undefined });
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await core?.close();
    fixture?.cleanup();
  });

  it('reports each session’s tokens, cost and context fill from the per-request records', async () => {
    const report = await core.api.usageReport({ by: 'session' });
    if (report.by !== 'session') throw new Error('wrong grouping');
    const codex = report.rows.find((r) => r.session === `codex:${CODEX_ID}`)!;
    // Fixture session (38,673 in / 1,068 out) plus the one new request, counted once.
    expect(codex).toMatchObject({ inputTokens: 38_673 + 416, cacheReadTokens: 8_704, outputTokens: 1_068 + 212, reasoningTokens: 120 + 128, models: ['gpt-5.5'] });
    expect(codex.contextTokens).toBe(9_120);
    expect(codex.contextWindow).toBe(272_000);
    expect(codex.contextPercent).toBeCloseTo(3.4, 1);
    expect(codex.costUSD).toBeGreaterThan(0.2254);
    const claude = report.rows.find((r) => r.session === `claude:${CLAUDE_ID}`)!;
    expect(claude).toMatchObject({ inputTokens: 8_856, outputTokens: 307, costUSD: null, unpricedModels: ['claude-opus-5-5'] });
    expect(claude.contextWindow).toBe(200_000);
    const opencode = report.rows.filter((r) => r.agent === 'opencode');
    expect(opencode).toHaveLength(5); // session totals where the agent records no per-request usage
  });

  it('context fill is the latest request, never the running totals of agents that record no per-request usage', async () => {
    const report = await core.api.usageReport({ by: 'session' });
    if (report.by !== 'session') throw new Error('wrong grouping');
    const row = (id: string) => report.rows.find((r) => r.session === id)!;
    // OpenCode: five assistant messages, the last one's prompt side (its totals are ~14k).
    expect(row('opencode:ses_dfea78e19ffeGOe4E5h8tUPM11').contextTokens).toBe(3_074);
    // Droid: the settings sidecar's lastCallTokenUsage (tokenUsage says 20,223 in all).
    expect(row('droid:419c8c4a-fd78-4101-91df-7725f3e228c0')).toMatchObject({ inputTokens: 20_223, contextTokens: 4_295 });
    // Continue: the last reply's prompt_tokens (the document's totals say 3,212).
    expect(row('continue:9fd09683-43ac-4495-9995-499ab3bee20c')).toMatchObject({ inputTokens: 3_212, contextTokens: 878 });
    // Hermes records only totals: its context is unknown, not its totals.
    const hermes = report.rows.filter((r) => r.agent === 'hermes' && r.inputTokens > 0);
    expect(hermes.length).toBeGreaterThan(0);
    for (const r of hermes) expect(r, r.session).toMatchObject({ contextTokens: null, contextPercent: null });
  });

  it('summarizes per agent: today, usage windows as reported, a limit hit with its reset, live sessions', async () => {
    const summary = await core.api.usageSummary({});
    const codex = summary.agents.find((a) => a.agent === 'codex')!;
    expect(codex.windows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'primary', usedPercent: 97.5, windowMinutes: 300, resetsAt: new Date(resetEpoch * 1000).toISOString() }),
        expect.objectContaining({ name: 'secondary', usedPercent: 41, windowMinutes: 10_080 }),
      ]),
    );
    expect(codex.today.outputTokens).toBe(212);
    expect(codex.liveSessions.map((s) => s.session)).toEqual([`codex:${CODEX_ID}`]);
    const claude = summary.agents.find((a) => a.agent === 'claude')!;
    expect(claude.limitHit).toMatchObject({ session: `claude:${CLAUDE_ID}`, resetsAt: new Date(resetEpoch * 1000).toISOString() });
    expect(claude.limitHit?.note).toContain('usage limit reached');
    const one = await core.api.usageSummary({ session: `codex:${CODEX_ID}` });
    expect(one.session?.session).toBe(`codex:${CODEX_ID}`);
  });

  it('groups by day, model and 5-hour block', async () => {
    const days = await core.api.usageReport({ by: 'day' });
    expect(days.rows.length).toBeGreaterThanOrEqual(2);
    const models = await core.api.usageReport({ by: 'model', agent: 'codex' });
    if (models.by !== 'model') throw new Error('wrong grouping');
    expect(models.rows.map((m) => m.model)).toEqual(['gpt-5.5']);
    const blocks = await core.api.usageReport({ by: 'block', agent: 'codex' });
    if (blocks.by !== 'block') throw new Error('wrong grouping');
    const active = blocks.rows.filter((b) => b.isActive);
    expect(active).toHaveLength(1);
    expect(active[0]!.outputTokens).toBe(212);
    for (const b of blocks.rows) expect(Date.parse(b.end) - Date.parse(b.start)).toBe(5 * 3_600_000);
    const since = await core.api.usageReport({ by: 'session', agent: 'codex', since: iso(-3_600_000) });
    if (since.by !== 'session') throw new Error('wrong grouping');
    expect(since.rows.map((r) => [r.session, r.outputTokens])).toEqual([[`codex:${CODEX_ID}`, 212]]);
  });
});
