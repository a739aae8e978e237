import { describe, expect, it } from 'vitest';
import type { LimitHit } from '../../../shared/limits.js';
import { decideLimitResets, handoffAfterHit, isLiveHit } from './limit-resets.js';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const hit = (over: Partial<LimitHit>): LimitHit => ({
  key: `claude:s@${over.at ?? iso(T0)}`, agent: 'claude', session: 'claude:s', at: iso(T0), resetsAt: iso(T0 + 3600_000), kind: 'usage_limit', window: null, note: null, ...over,
});
const fmt = (s: string) => s.slice(11, 16);

describe('reset notices', () => {
  it('tells once, when the reset passes while Baton runs, naming the agent that carried on', () => {
    const told = new Set<string>();
    const hits = [hit({})];
    const carriedOn = () => ({ agent: 'codex' as const, session: 'codex:abc' });
    const before = decideLimitResets(hits, { now: T0 + 60_000, startedAt: T0, carriedOn, formatTime: fmt }, told);
    expect(before).toEqual({ alerts: [], nextAt: T0 + 3600_000 });
    const after = decideLimitResets(hits, { now: T0 + 3600_000 + 1, startedAt: T0, carriedOn, formatTime: fmt }, told);
    expect(after.alerts.map((a) => [a.kind, a.message, a.carriedOnBy])).toEqual([
      ['reset', "Claude Code's usage limit has reset (hit at 10:00). Codex CLI carried on (codex:abc).", { agent: 'codex', session: 'codex:abc' }],
    ]);
    expect(decideLimitResets(hits, { now: T0 + 7200_000, startedAt: T0, carriedOn, formatTime: fmt }, told).alerts).toEqual([]);
  });

  it('says nothing of a reset that passed before Baton started, or of a hit without a reset time', () => {
    const told = new Set<string>();
    const hits = [hit({}), hit({ at: iso(T0 + 5), resetsAt: null, key: 'k2' })];
    expect(decideLimitResets(hits, { now: T0 + 7200_000, startedAt: T0 + 3600_000 + 1, carriedOn: () => null }, told)).toEqual({ alerts: [], nextAt: null });
  });

  it('one notice for retries of one stop; none while a later hit of the agent is still in force', () => {
    const told = new Set<string>();
    const hits = [hit({}), hit({ key: 'retry', at: iso(T0 + 2000), resetsAt: iso(T0 + 3600_000 + 2000) })];
    const done = decideLimitResets(hits, { now: T0 + 3700_000, startedAt: T0, carriedOn: () => null, formatTime: fmt }, told);
    expect(done.alerts.map((a) => a.message)).toEqual(["Claude Code's usage limit has reset (hit at 10:00). You can continue its session."]);
    const weekly = [hit({ key: 'h5', resetsAt: iso(T0 + 1000) }), hit({ key: 'week', at: iso(T0 + 10), resetsAt: iso(T0 + 86_400_000) })];
    expect(decideLimitResets(weekly, { now: T0 + 2000, startedAt: T0, carriedOn: () => null }, new Set()).alerts).toEqual([]);
  });

  it('a live hit is one recorded after the watch started (a cold index imports old ones)', () => {
    expect(isLiveHit({ at: iso(T0 + 1) }, T0)).toBe(true);
    expect(isLiveHit({ at: iso(T0 - 3600_000) }, T0)).toBe(false);
    expect(isLiveHit({ at: null }, T0)).toBe(false);
  });

  it('the handoff that carried on is the first made from the session at or after the hit', () => {
    const target = (agent: 'codex' | 'gemini', receivedBy: string | null) => ({ agent, projectDir: '/p', worktreeRoot: null, expiresAt: 'x', receivedBy });
    const list = [
      { createdAt: iso(T0 + 9000), handoff: target('gemini', null) },
      { createdAt: iso(T0 + 5000), handoff: target('codex', 'codex:1') },
      { createdAt: iso(T0 - 5000), handoff: target('gemini', 'gemini:old') },
    ];
    expect(handoffAfterHit(list, { at: iso(T0) })).toEqual({ agent: 'codex', session: 'codex:1' });
    expect(handoffAfterHit(list.slice(2), { at: iso(T0) })).toBeNull();
  });
});
