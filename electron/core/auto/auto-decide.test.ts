import { describe, expect, it } from 'vitest';
import type { AgentUsageSummary, SessionUsage, UsageSummary } from '../../../shared/usage.js';
import type { AutoRule } from '../../../shared/auto-continue.js';
import { chooseTarget, contextCandidates, DEFAULT_WINDOW_MS, limitCandidate, limitedAgents, ruleWants } from './auto-decide.js';

function live(id: string, contextPercent: number, lastActivity: string): SessionUsage {
  const zero = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 0, costUSD: null, requests: 1 };
  return { ...zero, session: id, agent: 'claude', title: null, cwd: '/p', lastActivity, models: [], unpricedModels: [], contextTokens: 1, contextWindow: 100, contextPercent, contextHistory: [1], own: zero, subagents: [], limitHit: null };
}

function agent(a: AgentUsageSummary['agent'], extra: Partial<AgentUsageSummary> = {}): AgentUsageSummary {
  return { agent: a, today: live('x', 0, '2026-01-01T00:00:00.000Z'), windows: [], limitHit: null, liveSessions: [], activeBlock: null, ...extra };
}
const summary = (...agents: AgentUsageSummary[]): UsageSummary => ({ generatedAt: '2026-01-01T12:00:00.000Z', agents });
const START = '2026-01-01T12:00:00.000Z';

describe('what calls for carrying on', () => {
  const liveHit = (at: string | null, resetsAt: string | null) => ({ key: `claude:a@${at}`, agent: 'claude' as const, session: 'claude:a', at, resetsAt, kind: 'usage_limit' as const, window: null, note: null });

  it('takes a live limit hit, with the reset as the end of its window', () => {
    expect(limitCandidate(liveHit('2026-01-01T12:00:05.000Z', '2026-01-01T17:00:00.000Z'))).toEqual({
      trigger: 'limit', agent: 'claude', session: 'claude:a', at: '2026-01-01T12:00:05.000Z', resetsAt: '2026-01-01T17:00:00.000Z', windowEnd: '2026-01-01T17:00:00.000Z', contextPercent: null,
    });
  });

  it('gives a hit without a known reset a five-hour window, and ignores one without a time', () => {
    const c = limitCandidate(liveHit('2026-01-01T12:00:05.000Z', null));
    expect(Date.parse(c!.windowEnd!) - Date.parse(c!.at)).toBe(DEFAULT_WINDOW_MS);
    expect(limitCandidate(liveHit(null, '2026-01-01T17:00:00.000Z'))).toBeNull();
  });

  it('never takes the limit hits a summary shows (a cold index reports old ones there): only live hits count', () => {
    const s = summary(agent('claude', { limitHit: liveHit('2026-01-01T12:00:05.000Z', null) }));
    expect(contextCandidates(s, { since: START, contextPercent: 85 })).toEqual([]);
  });

  it('takes a live session over the context threshold, not one below it or last active before Baton watched', () => {
    const s = summary(agent('claude', { liveSessions: [live('claude:over', 90, '2026-01-01T12:01:00.000Z'), live('claude:under', 84, '2026-01-01T12:01:00.000Z'), live('claude:old', 99, '2026-01-01T11:00:00.000Z')] }));
    expect(contextCandidates(s, { since: START, contextPercent: 85 }).map((c) => [c.trigger, c.session, c.windowEnd])).toEqual([['context', 'claude:over', null]]);
  });

  it('acts only on the triggers a folder asked for, and only after it was switched on', () => {
    const rule: AutoRule = { folder: '/p', worktreeRoot: null, targets: ['codex'], when: ['limit'], createdAt: '2026-01-01T12:00:10.000Z', updatedAt: '2026-01-01T12:00:10.000Z' };
    const hit = { trigger: 'limit' as const, agent: 'claude' as const, session: 'claude:a', at: '2026-01-01T12:00:20.000Z', resetsAt: null, windowEnd: null, contextPercent: null };
    expect(ruleWants(rule, hit)).toBe(true);
    expect(ruleWants(rule, { ...hit, trigger: 'context' })).toBe(false);
    expect(ruleWants(rule, { ...hit, at: '2026-01-01T12:00:05.000Z' })).toBe(false);
  });
});

describe('who carries on', () => {
  const now = new Date('2026-01-01T12:00:00.000Z');

  it('is the first agent of the list with room, never the source', () => {
    expect(chooseTarget(['claude', 'codex', 'gemini'], 'claude', new Set())).toEqual({ target: 'codex', skipped: [] });
  });

  it('skips a target whose own limit is known to be hit (a hit, or a window at 100 % not yet reset)', () => {
    const s = summary(
      agent('codex', { windows: [{ name: 'primary', usedPercent: 100, windowMinutes: 300, resetsAt: '2026-01-01T13:00:00.000Z', note: null, reportedAt: null }] }),
      agent('gemini', { limitHit: { key: 'k', agent: 'gemini', kind: 'quota', window: null, at: '2026-01-01T11:00:00.000Z', resetsAt: null, note: null, session: 'gemini:x' } }),
      agent('qwen', { windows: [{ name: 'primary', usedPercent: 100, windowMinutes: 300, resetsAt: '2026-01-01T11:00:00.000Z', note: null, reportedAt: null }] }),
    );
    const limited = limitedAgents(s, now);
    expect([...limited].sort()).toEqual(['codex', 'gemini']);
    expect(chooseTarget(['codex', 'gemini', 'qwen'], 'claude', limited)).toEqual({ target: 'qwen', skipped: ['codex', 'gemini'] });
  });

  it('is nobody when every agent of the list is limited', () => {
    expect(chooseTarget(['codex'], 'claude', new Set(['codex']))).toEqual({ target: null, skipped: ['codex'] });
    expect(chooseTarget(['claude'], 'claude', new Set())).toEqual({ target: null, skipped: [] });
  });
});
