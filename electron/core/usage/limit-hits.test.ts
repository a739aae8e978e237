/**
 * Limit hits from what the real CLIs wrote when their provider answered with its plan-limit 429
 * (testing/fixtures/limits/home, recorded against testing/agents/limit-mock.ts; see its README),
 * through the real adapters and index into the usage report, the summary and the session's usage.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitHit } from '../../../shared/limits.js';
import { homeEnvironment } from '../../../testing/fixture-home.js';
import { startFixtureCore } from '../../../testing/fixture-core.js';
import type { BatonCore } from '../service.js';
import { Pricing } from './pricing.js';
import { UsageReport } from './usage-report.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../testing/fixtures/limits/home');
/** Shortly after the recordings: Claude's hit (no reset recorded) is still within its 5-hour block. */
const NOW = Date.parse('2026-11-27T06:00:00.000Z');
/** The reset the limit mock announced (x-codex-primary-reset-at / resets_at). */
const MOCK_RESET = new Date(1795768067 * 1000).toISOString();

let dir: string;
let core: BatonCore;
let report: UsageReport;
let hits: LimitHit[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-limits-'));
  const home = path.join(dir, 'home');
  fs.cpSync(FIXTURE, home, { recursive: true });
  core = await startFixtureCore({ home, env: homeEnvironment(process.env, home, path.join(dir, 'baton')), cleanup: () => {} });
  report = new UsageReport(core.sources.reader.db, new Pricing({}), () => NOW);
  hits = report.limitHits();
}, 60_000);

afterAll(async () => {
  await core?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const hitOf = (agent: string) => hits.filter((h) => h.agent === agent);

describe('limit hits recorded by the real CLIs', () => {
  it('Claude Code 2.1.330: the isApiErrorMessage record (error rate_limit, 429) is a rate-limit hit', () => {
    expect(hitOf('claude')).toEqual([
      expect.objectContaining({ kind: 'rate_limit', at: '2026-11-27T05:25:50.434Z', resetsAt: null, session: 'claude:4863b5d4-1888-45c8-91e7-6e0b2d42b891' }),
    ]);
    expect(hitOf('claude')[0]!.note).toContain('Request rejected (429)');
  });

  it('Codex 0.169: the exhausted primary window and the task_complete error are one usage-limit hit with the window reset', () => {
    const [hit, ...more] = hitOf('codex');
    expect(more).toEqual([]);
    expect(hit).toMatchObject({ kind: 'usage_limit', window: 'primary', resetsAt: MOCK_RESET, at: '2026-11-27T05:28:57.541Z' });
    expect(hit!.note).toMatch(/hit your usage limit/);
  });

  it('Qwen Code 0.24.4: its api_error telemetry (429) is the hit; seven retries of one refusal are one hit; a quota names its reset', () => {
    const bySession = (id: string) => hitOf('qwen').filter((h) => h.session === `qwen:${id}`);
    const retried = bySession('235d3a4a-7ad3-4f54-9cf1-dfc2352d0906');
    expect(retried).toEqual([expect.objectContaining({ kind: 'usage_limit', resetsAt: null })]);
    expect(retried[0]!.note).toContain('429 The usage limit has been reached');
    // Qwen's own providers' quota answer: Qwen Code fails fast and the words carry the reset.
    expect(bySession('4d4d662c-b1cf-445a-826f-3c444473dd0e')).toEqual([expect.objectContaining({ kind: 'quota', resetsAt: '2026-11-27T08:48:14.000Z' })]);
  });

  it('pi 0.73.1: an assistant message stopped with error 429 rate_limit_error is a hit', () => {
    expect(hitOf('pi')).toEqual([expect.objectContaining({ kind: 'rate_limit', resetsAt: null })]);
  });

  it('OpenCode 1.18.33: the APIError on the assistant message is a usage-limit hit with the reset from the response headers', () => {
    expect(hitOf('opencode')).toEqual([expect.objectContaining({ kind: 'usage_limit', resetsAt: MOCK_RESET })]);
  });

  it('Hermes 0.18.2: the session-tagged ERROR line of its exhausted 429 retries (logs/errors.log) is a rate-limit hit', () => {
    expect(hitOf('hermes')).toEqual([
      expect.objectContaining({ kind: 'rate_limit', session: 'hermes:20261127_053058_c30a1b', at: new Date(2026, 10, 27, 5, 31, 12, 362).toISOString(), resetsAt: null }),
    ]);
    expect(hitOf('hermes')[0]!.note).toContain('HTTP 429');
  });

  it('Gemini CLI 0.61: headless -p records nothing of RESOURCE_EXHAUSTED; the interactive CLI records an `error` notice, a quota hit', () => {
    expect(hitOf('gemini')).toEqual([
      expect.objectContaining({ kind: 'quota', session: 'gemini:22d38412-c686-4110-9594-ed6e9b5fd647', at: '2026-11-27T06:01:18.693Z', resetsAt: null }),
    ]);
    expect(hitOf('gemini')[0]!.note).toContain('exhausted your daily quota');
    // The headless session (the prompt only) is indexed and claims no hit.
    expect(core.sources.reader.listSessions({}).sessions.some((s) => s.id === 'gemini:8dacfede-8580-4e67-a237-09179d8a56f9')).toBe(true);
  });

  it('the summary names each agent whose hit is still in force; the session usage carries its own hit', () => {
    const summary = report.summary({ agents: ['claude', 'codex', 'opencode', 'gemini', 'qwen', 'pi', 'hermes'] });
    const limited = Object.fromEntries(summary.agents.map((a) => [a.agent, a.limitHit?.kind ?? null]));
    expect(limited).toMatchObject({ claude: 'rate_limit', codex: 'usage_limit', opencode: 'usage_limit', qwen: 'quota', pi: 'rate_limit', hermes: 'rate_limit', gemini: 'quota' });
    const claude = hitOf('claude')[0]!;
    expect(report.bySession({ sessionId: claude.session })[0]?.limitHit).toEqual(claude);
    // A hit whose reset passed (Claude's, with none recorded: 5 hours on) is history in the summary.
    const later = new UsageReport(core.sources.reader.db, new Pricing({}), () => NOW + 6 * 3600_000).summary({ agents: ['claude'] });
    expect(later.agents.find((a) => a.agent === 'claude')?.limitHit ?? null).toBeNull();
  });

  it('a brief of a session that stopped on its limit: the API error is not its conclusion, the state says so with the reset', async () => {
    const codex = hitOf('codex')[0]!;
    const brief = await core.api.generateBrief({ session: codex.session, format: 'md', redact: true });
    expect(brief.text).toContain(`The session stopped on its usage limit at 2026-11-27 05:28 UTC (resets ${MOCK_RESET.slice(0, 16).replace('T', ' ')} UTC)`);
    const claude = await core.api.generateBrief({ session: hitOf('claude')[0]!.session, format: 'md', redact: true });
    expect(claude.text).toContain('The session stopped on its rate limit at 2026-11-27 05:25 UTC (reset time not recorded)');
    expect(claude.text).not.toContain('Last assistant conclusion');
    expect(claude.text).not.toMatch(/API Error: Request rejected/);
  });
});

