/**
 * Unattended continuation: a live limit hit (the `limit-hit` event, which the usage layer emits only
 * for hits recorded while Baton watched, never for a cold index's old ones) or, where asked, a live
 * session crossing the context threshold (checked when the index changes), in a folder switched on.
 * For each, one run is claimed in baton.db (once per folder, source agent and limit window; once
 * per session for context), the handoff goes to the first agent of the folder's list with room,
 * that agent is opened in the folder's terminal, and the user is told: a notice and an
 * `auto-continue` event (native notification, tray), the log, and `baton auto status`.
 */
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import type { AutoRun } from '../../../shared/auto-continue.js';
import type { HandoffResult } from '../../../shared/api-types.js';
import type { Settings } from '../../../shared/settings.js';
import type { UsageSummary } from '../../../shared/usage.js';
import type { CoreEvents } from '../events.js';
import type { AutoStore } from '../userdata/auto-store.js';
import { sessionHost } from '../remote/remote-ids.js';
import type { LimitHit } from '../../../shared/limits.js';
import { chooseTarget, contextCandidates, limitCandidate, limitedAgents, ruleWants, type AutoCandidate } from './auto-decide.js';
import { ruleForCwd } from './auto-rules.js';

export interface AutoContinueDeps {
  events: CoreEvents;
  store: AutoStore;
  summary(): Promise<UsageSummary>;
  settings(): Settings;
  /** The folder a session ran in (null when unknown or gone from the index). */
  sessionCwd(sessionId: string): string | null;
  /** Hands the session off to `target` in `folder` and opens it in a terminal there. */
  handOff(request: { session: string; target: AgentId; projectDir: string }): Promise<HandoffResult>;
  log(line: string): void;
  now?(): Date;
  /** Bursts of changes fold into one check this long after the first (default 300 ms). */
  delayMs?: number;
}

export interface AutoContinueWatch {
  /** Runs one check now (also what the index's changes schedule); resolves with the runs it made. */
  check(): Promise<AutoRun[]>;
  stop(): void;
}

export function watchAutoContinue(deps: AutoContinueDeps): AutoContinueWatch {
  const now = deps.now ?? (() => new Date());
  // Only what happens from now on is news: a cold index of old transcripts opens nothing.
  const since = now().toISOString();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<AutoRun[]> = Promise.resolve([]);
  let stopped = false;
  /** Live hits not yet looked at. */
  let hits: LimitHit[] = [];

  const checkOnce = async (): Promise<AutoRun[]> => {
    const fresh = hits;
    hits = [];
    const rules = deps.store.listRules();
    if (rules.length === 0 || stopped) return [];
    const summary = await deps.summary();
    const candidates = [
      ...fresh.map(limitCandidate).filter((c): c is AutoCandidate => c !== null),
      ...contextCandidates(summary, { since, contextPercent: deps.settings().usageAlertContextPercent }),
    ];
    const made: AutoRun[] = [];
    for (const candidate of candidates) {
      if (stopped) break;
      if (sessionHost(candidate.session)) continue; // another machine's session: its folder is not here
      const cwd = deps.sessionCwd(candidate.session);
      const rule = ruleForCwd(rules, cwd);
      if (!rule || !cwd || !ruleWants(rule, candidate)) continue;
      const run = deps.store.claimRun({
        folder: rule.folder,
        sourceSession: candidate.session,
        sourceAgent: candidate.agent,
        trigger: candidate.trigger,
        at: candidate.at,
        windowEnd: candidate.windowEnd,
        resetsAt: candidate.resetsAt,
        createdAt: now().toISOString(),
      });
      if (!run) continue; // this window (or this session's crossing) was handled already
      made.push(await carryOn(run, candidate, rule.targets, limitedAgents(summary, now()), cwd));
    }
    return made;
  };

  const carryOn = async (run: AutoRun, candidate: AutoCandidate, targets: readonly AgentId[], limited: Set<AgentId>, cwd: string): Promise<AutoRun> => {
    const source = AGENT_LABELS[candidate.agent];
    const why = candidate.trigger === 'limit' ? `${source} hit its usage limit` : `A ${source} session reached ${Math.round(candidate.contextPercent ?? 0)} % of its context`;
    const { target, skipped } = chooseTarget(targets, candidate.agent, limited);
    const busy = skipped.length ? ` (${skipped.map((a) => AGENT_LABELS[a]).join(', ')} at ${skipped.length > 1 ? 'their' : 'its'} own limit)` : '';
    let finished: AutoRun;
    if (!target) {
      const message = `${why} in ${run.folder}; no agent of this folder's list has room to carry on${busy}.`;
      finished = deps.store.finishRun(run.id, { target: null, checkpointId: null, outcome: 'no-target', message, command: null });
    } else {
      try {
        // The session's own folder (the rule may cover a parent or the whole work tree).
        const result = await deps.handOff({ session: candidate.session, target, projectDir: cwd });
        const opened = result.opened;
        const launched = opened?.launched === true;
        const how = launched ? 'opened in a terminal there' : `could not open a terminal (${opened?.error ?? 'unknown error'}); run: ${opened?.command ?? ''}`;
        const message = `${why} in ${cwd}: ${AGENT_LABELS[target]} carries on${busy}, ${how}.`;
        finished = deps.store.finishRun(run.id, { target, checkpointId: result.checkpoint.id, outcome: launched ? 'opened' : 'not-opened', message, command: opened?.command ?? null });
      } catch (err) {
        const message = `${why} in ${cwd}; handing off to ${AGENT_LABELS[target]} failed: ${err instanceof Error ? err.message : String(err)}`;
        finished = deps.store.finishRun(run.id, { target, checkpointId: null, outcome: 'not-opened', message, command: null });
      }
    }
    deps.log(`auto-continue: ${finished.message}`);
    deps.events.emit({ type: 'notice', level: finished.outcome === 'opened' ? 'info' : 'warning', message: finished.message });
    deps.events.emit({ type: 'auto-continue', run: finished });
    return finished;
  };

  // One check at a time, in order: a second burst waits for the first (claims are also atomic in baton.db).
  const check = (): Promise<AutoRun[]> => {
    const next = chain.then(checkOnce, checkOnce).catch((err: unknown) => {
      deps.log(`auto-continue: ${err instanceof Error ? err.message : String(err)}`);
      return [] as AutoRun[];
    });
    chain = next;
    return next;
  };

  const schedule = (): void => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void check();
    }, deps.delayMs ?? 300);
  };
  const off = deps.events.subscribe((event) => {
    if (event.type === 'limit-hit') {
      hits.push(event.hit);
      schedule();
    } else if (event.type === 'sessions-changed') schedule();
  });
  return {
    check,
    stop: () => {
      stopped = true;
      off();
      if (timer) clearTimeout(timer);
    },
  };
}
