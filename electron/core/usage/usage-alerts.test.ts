import { describe, expect, it } from 'vitest';
import type { LimitHit } from '../../../shared/limits.js';
import type { AgentUsageSummary, SessionUsage, UsageSummary } from '../../../shared/usage.js';
import { decideUsageAlerts, suggestTarget } from './usage-alerts.js';

function session(id: string, contextPercent: number | null, history: number[] = [1]): SessionUsage {
  return {
    session: id, agent: id.startsWith('codex') ? 'codex' : 'claude', title: 'fix login', cwd: '/p', lastActivity: `2026-01-01T10:${String(history.length).padStart(2, '0')}:00.000Z`,
    inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 2, costUSD: null, models: [], unpricedModels: [], requests: 1,
    contextTokens: 1, contextWindow: 100, contextPercent, contextHistory: history,
    own: { inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 2, costUSD: null, requests: 1 }, subagents: [], limitHit: null,
  };
}

function agent(a: AgentUsageSummary['agent'], extra: Partial<AgentUsageSummary> = {}): AgentUsageSummary {
  return { agent: a, today: session('x', null), windows: [], limitHit: null, liveSessions: [], activeBlock: null, ...extra };
}

const summary = (...agents: AgentUsageSummary[]): UsageSummary => ({ generatedAt: '2026-01-01T10:00:00.000Z', agents });
const options = { enabled: true, contextPercent: 85, targets: ['claude', 'codex', 'gemini'] as const, formatTime: (iso: string) => iso.slice(11, 16) };

describe('usage alerts', () => {
  it('announces a live session crossing the context threshold once, with a handoff target', () => {
    const fired = new Set<string>();
    const before = summary(agent('codex', { liveSessions: [session('codex:a', 60)] }));
    const after = summary(agent('codex', { liveSessions: [session('codex:a', 91.2, [1, 2])] }));
    const alerts = decideUsageAlerts(before, after, options, fired);
    expect(alerts).toEqual([
      expect.objectContaining({ kind: 'context', agent: 'codex', session: 'codex:a', suggestedTarget: 'claude', contextPercent: 91.2, message: 'A Codex CLI session (fix login) is at 91 % of its context window. Hand off to Claude Code?' }),
    ]);
    // The same state again, or a later request still over the line: nothing new.
    expect(decideUsageAlerts(before, after, options, fired)).toEqual([]);
    const later = summary(agent('codex', { liveSessions: [session('codex:a', 95, [1, 2, 3])] }));
    expect(decideUsageAlerts(after, later, options, fired)).toEqual([]);
  });

  it('stays quiet below the threshold, when disabled, and for sessions with no known window', () => {
    const below = summary(agent('codex', { liveSessions: [session('codex:a', 84.9), session('codex:b', null)] }));
    expect(decideUsageAlerts(null, below, options, new Set())).toEqual([]);
    const over = summary(agent('codex', { liveSessions: [session('codex:a', 90)] }));
    expect(decideUsageAlerts(null, over, { ...options, enabled: false }, new Set())).toEqual([]);
    expect(decideUsageAlerts(null, over, { ...options, contextPercent: 95 }, new Set())).toEqual([]);
  });

  it('announces a session that fills up again after a compaction', () => {
    const fired = new Set<string>();
    const full = summary(agent('codex', { liveSessions: [session('codex:a', 90, [1, 2])] }));
    expect(decideUsageAlerts(null, full, options, fired)).toHaveLength(1);
    const compacted = summary(agent('codex', { liveSessions: [session('codex:a', 20, [1, 2, 3])] }));
    expect(decideUsageAlerts(full, compacted, options, fired)).toEqual([]);
    const fullAgain = summary(agent('codex', { liveSessions: [session('codex:a', 88, [1, 2, 3, 4])] }));
    expect(decideUsageAlerts(compacted, fullAgain, options, fired)).toHaveLength(1);
  });

  it('announces a usage limit hit once, with its reset time and an agent that still has room', () => {
    const fired = new Set<string>();
    const hit: LimitHit = { key: 'claude:s1@2026-01-01T09:58:00.000Z', agent: 'claude', kind: 'rate_limit', window: 'five_hour', at: '2026-01-01T09:58:00.000Z', resetsAt: '2026-01-01T19:00:00.000Z', note: null, session: 'claude:s1' };
    const now = summary(agent('claude', { limitHit: hit }), agent('codex'));
    const alerts = decideUsageAlerts(null, now, options, fired);
    expect(alerts).toEqual([
      { key: 'limit:claude:2026-01-01T09:58:00.000Z', kind: 'limit', agent: 'claude', session: 'claude:s1', message: 'Claude Code reached its usage limit (resets 19:00). Hand off to Codex CLI?', suggestedTarget: 'codex', resetsAt: hit.resetsAt, contextPercent: null, hit },
    ]);
    expect(decideUsageAlerts(now, now, options, fired)).toEqual([]);
    // A later hit is news again.
    const again = summary(agent('claude', { limitHit: { ...hit, at: '2026-01-01T20:00:00.000Z', resetsAt: null } }));
    expect(decideUsageAlerts(now, again, options, fired).map((a) => a.message)).toEqual(['Claude Code reached its usage limit. Hand off to Codex CLI?']);
  });

  it('suggests an enabled agent other than the one that ran out, skipping agents at their own limit', () => {
    const hit: LimitHit = { key: 's@x', agent: 'claude', kind: 'usage_limit', window: null, at: 'x', resetsAt: null, note: null, session: 's' };
    const s = summary(agent('claude', { limitHit: hit }), agent('codex', { limitHit: hit }));
    expect(suggestTarget('claude', s, ['claude', 'codex', 'gemini'])).toBe('gemini');
    expect(suggestTarget('claude', s, ['claude', 'codex'])).toBe('codex');
    expect(suggestTarget('claude', s, ['claude'])).toBeNull();
  });
});
