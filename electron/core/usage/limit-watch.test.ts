import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api-types.js';
import type { LimitHit } from '../../../shared/limits.js';
import { defaultSettings } from '../../../shared/settings.js';
import { CoreEvents } from '../events.js';
import { watchLimitHits } from './limit-watch.js';

async function until<T>(probe: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let stop: (() => void) | null = null;
afterEach(() => stop?.());

describe('watchLimitHits (real timers, real event bus)', () => {
  it('emits a live hit once, never an imported old one, and tells the reset when its time passes with no index change', async () => {
    const events = new CoreEvents();
    const seen: ApiEvent[] = [];
    events.subscribe((e) => seen.push(e));
    const now = Date.now();
    const old: LimitHit = { key: 'old', agent: 'codex', session: 'codex:o', at: new Date(now - 86_400_000).toISOString(), resetsAt: new Date(now - 3600_000).toISOString(), kind: 'usage_limit', window: 'primary', note: null };
    const fresh: LimitHit = { key: 'fresh', agent: 'claude', session: 'claude:f', at: new Date(now).toISOString(), resetsAt: new Date(now + 400).toISOString(), kind: 'rate_limit', window: null, note: null };
    let hits: LimitHit[] = [old];
    stop = watchLimitHits({
      events,
      hits: async () => hits,
      carriedOn: (h) => (h.key === 'fresh' ? { agent: 'codex', session: null } : null),
      settings: () => defaultSettings(),
      log: () => {},
      delayMs: 10,
    });
    hits = [old, fresh];
    events.emit({ type: 'sessions-changed', sessionIds: ['claude:f'] });
    events.emit({ type: 'sessions-changed', sessionIds: ['claude:f'] });
    const reset = await until(() => seen.find((e) => e.type === 'usage-alert' && e.alert.kind === 'reset'));
    expect(reset.type === 'usage-alert' && reset.alert.message).toMatch(/^Claude Code's rate limit has reset \(hit at .+\)\. Codex CLI carried on\.$/);
    expect(seen.filter((e) => e.type === 'limit-hit').map((e) => e.type === 'limit-hit' && e.hit.key)).toEqual(['fresh']);
    events.emit({ type: 'sessions-changed', sessionIds: [] });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.filter((e) => e.type === 'usage-alert')).toHaveLength(1);
  });
});
