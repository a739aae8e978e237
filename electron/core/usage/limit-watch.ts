/**
 * Limit hits while Baton runs: a hit recorded after the watch started is announced as a `limit-hit`
 * event (what unattended continuation acts on; a cold index's old hits are never "live"), and when a
 * hit's reset time passes the user is told once, as a usage alert of kind `reset` naming the agent
 * that carried on when a handoff was made from that session.
 */
import type { LimitHit } from '../../../shared/limits.js';
import type { Settings } from '../../../shared/settings.js';
import type { CoreEvents } from '../events.js';
import { decideLimitResets, isLiveHit, type CarriedOn } from './limit-resets.js';

export interface LimitWatchDeps {
  events: CoreEvents;
  /** Every limit hit the index holds, recorded at or after `since` (ISO). */
  hits(since: string): Promise<LimitHit[]>;
  /** The handoff made from the hit's session at or after the hit, when one was. */
  carriedOn(hit: LimitHit): CarriedOn | null;
  settings(): Settings;
  log(line: string): void;
  now?: () => number;
  /** Bursts of index changes fold into one check this long after the first (default 500 ms). */
  delayMs?: number;
  formatTime?: (iso: string) => string;
}

/** How far back the watch reads hits: a weekly window's hit still resets within it. */
const LOOKBACK_MS = 8 * 86_400_000;
/** A timer never waits longer than this (setTimeout's range; the index may change meanwhile anyway). */
const MAX_WAIT_MS = 60 * 60 * 1000;

export function watchLimitHits(deps: LimitWatchDeps): () => void {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const announced = new Set<string>();
  const told = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let resetTimer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let again = false;
  let stopped = false;

  const check = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    try {
      const t = now();
      const hits = await deps.hits(new Date(t - LOOKBACK_MS).toISOString());
      if (stopped) return;
      for (const hit of hits) {
        if (announced.has(hit.key) || !isLiveHit(hit, startedAt)) continue;
        announced.add(hit.key);
        deps.events.emit({ type: 'limit-hit', hit });
      }
      // Told or not (alerts off), a reset is settled once: switching alerts on later replays nothing.
      const { alerts, nextAt } = decideLimitResets(hits, { now: t, startedAt, carriedOn: deps.carriedOn, formatTime: deps.formatTime }, told);
      if (deps.settings().usageAlerts) for (const alert of alerts) deps.events.emit({ type: 'usage-alert', alert });
      armReset(nextAt, t);
    } catch (err) {
      deps.log(`limit watch: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      running = false;
    }
    if (again && !stopped) void check();
  };

  /** Wake up when the next known reset passes (a hit's reset is told without any index change). */
  const armReset = (nextAt: number | null, t: number): void => {
    if (resetTimer) clearTimeout(resetTimer);
    resetTimer = null;
    if (nextAt === null || stopped) return;
    resetTimer = setTimeout(() => {
      resetTimer = null;
      void check();
    }, Math.min(MAX_WAIT_MS, Math.max(0, nextAt - t) + 50));
  };

  const schedule = (): void => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void check();
    }, deps.delayMs ?? 500);
  };

  const off = deps.events.subscribe((event) => {
    if (event.type === 'sessions-changed') schedule();
    else if (event.type === 'index-progress' && (event.progress.phase === 'watching' || event.progress.phase === 'idle')) schedule();
  });
  schedule();
  return () => {
    stopped = true;
    off();
    if (timer) clearTimeout(timer);
    if (resetTimer) clearTimeout(resetTimer);
  };
}
