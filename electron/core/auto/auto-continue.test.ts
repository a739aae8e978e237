/**
 * The watcher over a real baton.db and the real event bus: the usage summaries are scripted (what
 * the index would report), the handoff is recorded as a real pending-handoff checkpoint, and the
 * terminal is what the handoff reports (launched or not). The real CLIs and terminal: e2e/agents/auto-continue.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentId } from '../../../shared/model.js';
import type { ApiEvent, HandoffResult } from '../../../shared/api-types.js';
import type { AgentUsageSummary, UsageSummary } from '../../../shared/usage.js';
import type { LimitHit } from '../../../shared/limits.js';
import { defaultSettings } from '../../../shared/settings.js';
import { CoreEvents } from '../events.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { setAutoContinue } from './auto-api.js';
import { watchAutoContinue, type AutoContinueWatch } from './auto-continue.js';

let tmp: string;
let data: UserData;
let project: string;
let elsewhere: string;
let summary: UsageSummary;
let clock: Date;
let events: CoreEvents;
let seen: ApiEvent[];
let handOffs: { session: string; target: AgentId; projectDir: string }[];
let launched: boolean;
const watches: AutoContinueWatch[] = [];
const cwds = new Map<string, string>();

function agent(a: AgentId, extra: Partial<AgentUsageSummary> = {}): AgentUsageSummary {
  const zero = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 0, costUSD: null, models: [], unpricedModels: [], requests: 0 };
  return { agent: a, today: zero, windows: [], limitHit: null, liveSessions: [], activeBlock: null, ...extra };
}
function hit(session: string, at: string, resetsAt: string | null = '2026-01-01T17:00:00.000Z'): LimitHit {
  return { key: `${session}@${at}`, agent: session.split(':')[0] as AgentId, session, at, resetsAt, kind: 'usage_limit', window: null, note: null };
}
/** The usage layer saw a hit recorded while Baton watched. */
const live = (h: LimitHit) => events.emit({ type: 'limit-hit', hit: h });

function watch(): AutoContinueWatch {
  const w = watchAutoContinue({
    events,
    store: data.auto,
    summary: async () => summary,
    settings: () => defaultSettings(),
    sessionCwd: (id) => cwds.get(id) ?? null,
    handOff: async (request) => {
      handOffs.push(request);
      const { checkpoint } = data.saveCheckpoint({
        sessionId: request.session, idempotencyToken: null, summary: 'auto', decisions: [], nextSteps: [], blockers: [], itemsCompleted: [], itemsAdded: [], filesChanged: [],
        git: null, continuesFrom: null, createdAt: clock.toISOString(), gitFingerprint: {},
        handoff: { target: { agent: request.target, projectDir: request.projectDir, worktreeRoot: null, expiresAt: '2026-01-02T00:00:00.000Z' }, brief: 'the brief' },
      });
      const opened = { command: `cd ${request.projectDir} && ${request.target}`, launched, error: launched ? null : 'No terminal found to open.' };
      return { checkpoint, brief: 'the brief', hooksInstalled: false, delivery: { via: 'hook', what: 'hook', command: 'baton hooks install', settings: null }, opened } satisfies HandoffResult;
    },
    log: () => {},
    now: () => clock,
    delayMs: 5,
  });
  watches.push(w);
  return w;
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-auto-')));
  project = path.join(tmp, 'project');
  elsewhere = path.join(tmp, 'elsewhere');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.mkdirSync(elsewhere);
  data = openUserData(path.join(tmp, 'baton'));
  clock = new Date('2026-01-01T12:00:00.000Z');
  summary = { generatedAt: clock.toISOString(), agents: [] };
  events = new CoreEvents();
  seen = [];
  events.subscribe((e) => seen.push(e));
  handOffs = [];
  launched = true;
  cwds.clear();
  cwds.set('claude:a', path.join(project, 'src'));
  cwds.set('claude:b', project);
  cwds.set('claude:far', elsewhere);
});
afterEach(() => {
  for (const w of watches.splice(0)) w.stop();
  data.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function switchOn(targets: AgentId[], when: ('limit' | 'context')[] = ['limit']): void {
  setAutoContinue(data.auto, { folder: project, on: true, targets, when }, clock);
}

describe('unattended continuation', () => {
  it('hands a live limit hit in a switched-on folder (a subfolder) to the first agent, opened there, and says so', async () => {
    const w = watch();
    switchOn(['codex', 'gemini']);
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    const [run] = await w.check();
    expect(handOffs).toEqual([{ session: 'claude:a', target: 'codex', projectDir: path.join(project, 'src') }]);
    expect(run).toMatchObject({ folder: project, sourceSession: 'claude:a', sourceAgent: 'claude', trigger: 'limit', target: 'codex', outcome: 'opened', resetsAt: '2026-01-01T17:00:00.000Z', windowEnd: '2026-01-01T17:00:00.000Z' });
    expect(run!.message).toBe(`Claude Code hit its usage limit in ${path.join(project, 'src')}: Codex CLI carries on, opened in a terminal there.`);
    // The handoff record names the agent that carried on, and the run links to it.
    expect(data.getCheckpoint(run!.checkpointId!)?.handoff?.agent).toBe('codex');
    expect(data.auto.listRuns()).toEqual([run]);
    expect(seen).toContainEqual({ type: 'notice', level: 'info', message: run!.message });
    expect(seen).toContainEqual({ type: 'auto-continue', run });
  });

  it('acts on a live limit hit by itself, with no one asking', async () => {
    watch();
    switchOn(['codex']);
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    await expect.poll(() => handOffs.length).toBe(1);
  });

  it('opens at most once per folder, source agent and limit window: a second hit, or another session, opens nothing more', async () => {
    const w = watch();
    switchOn(['codex']);
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    live(hit('claude:a', '2026-01-01T12:00:30.000Z')); // the same hit read twice
    expect(await w.check()).toHaveLength(1);
    live(hit('claude:a', '2026-01-01T12:05:00.000Z'));
    expect(await w.check()).toEqual([]);
    live(hit('claude:b', '2026-01-01T12:06:00.000Z'));
    expect(await w.check()).toEqual([]);
    // A restarted Baton remembers (baton.db).
    w.stop();
    const restarted = watch();
    live(hit('claude:a', '2026-01-01T12:07:00.000Z'));
    expect(await restarted.check()).toEqual([]);
    expect(handOffs).toHaveLength(1);
    // After the window (the reset), a new hit is a new window.
    clock = new Date('2026-01-01T17:30:00.000Z');
    live(hit('claude:a', '2026-01-01T17:20:00.000Z', '2026-01-01T22:00:00.000Z'));
    expect(await restarted.check()).toHaveLength(1);
    expect(handOffs).toHaveLength(2);
  });

  it('never acts for a folder not switched on, nor after it is switched off', async () => {
    const w = watch();
    switchOn(['codex']);
    live(hit('claude:far', '2026-01-01T12:00:30.000Z'));
    expect(await w.check()).toEqual([]);
    setAutoContinue(data.auto, { folder: project, on: false }, clock);
    live(hit('claude:a', '2026-01-01T12:00:40.000Z'));
    expect(await w.check()).toEqual([]);
    expect(handOffs).toEqual([]);
    expect(data.auto.listRuns()).toEqual([]);
  });

  it('opens nothing for old hits a cold index reports (no live hit), nor for a hit from before the folder was switched on', async () => {
    switchOn(['codex']);
    const w = watch();
    // What the index reports after importing old transcripts: the summary has the hit, no live event came.
    summary = { generatedAt: '', agents: [agent('claude', { limitHit: hit('claude:a', '2026-01-01T11:00:00.000Z') })] };
    events.emit({ type: 'sessions-changed', sessionIds: ['claude:a'] });
    expect(await w.check()).toEqual([]);
    clock = new Date('2026-01-01T12:10:00.000Z');
    setAutoContinue(data.auto, { folder: project, on: false }, clock);
    switchOn(['codex']);
    live(hit('claude:a', '2026-01-01T12:05:00.000Z'));
    expect(await w.check()).toEqual([]);
    expect(handOffs).toEqual([]);
  });

  it('passes over a target whose own limit is hit to the next in the order', async () => {
    const w = watch();
    switchOn(['codex', 'gemini']);
    summary = { generatedAt: '', agents: [agent('codex', { limitHit: hit('codex:x', '2026-01-01T11:00:00.000Z') })] };
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    const [run] = await w.check();
    expect(handOffs.map((h) => h.target)).toEqual(['gemini']);
    expect(run!.message).toContain('Gemini CLI carries on (Codex CLI at its own limit)');
  });

  it('opens nothing and tells the user when no agent of the list has room, once per window', async () => {
    const w = watch();
    switchOn(['codex']);
    summary = { generatedAt: '', agents: [agent('codex', { limitHit: hit('codex:x', '2026-01-01T11:00:00.000Z') })] };
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    const [run] = await w.check();
    expect(handOffs).toEqual([]);
    expect(run).toMatchObject({ outcome: 'no-target', target: null, checkpointId: null });
    expect(run!.message).toMatch(/no agent of this folder's list has room to carry on \(Codex CLI at its own limit\)/);
    expect(seen).toContainEqual({ type: 'notice', level: 'warning', message: run!.message });
    expect(await w.check()).toEqual([]);
  });

  it('records a terminal that could not open, with the command to run', async () => {
    launched = false;
    const w = watch();
    switchOn(['codex']);
    live(hit('claude:a', '2026-01-01T12:00:30.000Z'));
    const [run] = await w.check();
    expect(run).toMatchObject({ outcome: 'not-opened', target: 'codex', command: `cd ${path.join(project, 'src')} && codex` });
    expect(run!.message).toContain('could not open a terminal (No terminal found to open.)');
  });

  it('carries on at the context threshold only where asked, once per session', async () => {
    const w = watch();
    switchOn(['codex']);
    const full = (session: string, percent: number) => {
      const zero = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 0, costUSD: null, requests: 1 };
      return { ...zero, session, agent: 'claude' as const, title: null, cwd: project, lastActivity: '2026-01-01T12:01:00.000Z', models: [], unpricedModels: [], contextTokens: 1, contextWindow: 100, contextPercent: percent, contextHistory: [1], own: zero, subagents: [], limitHit: null };
    };
    summary = { generatedAt: '', agents: [agent('claude', { liveSessions: [full('claude:b', 92)] })] };
    expect(await w.check()).toEqual([]);
    switchOn(['codex'], ['limit', 'context']);
    summary = { generatedAt: '', agents: [agent('claude', { liveSessions: [{ ...full('claude:b', 93), lastActivity: '2026-01-01T12:02:00.000Z' }] })] };
    const [run] = await w.check();
    expect(run).toMatchObject({ trigger: 'context', target: 'codex', windowEnd: null });
    expect(run!.message).toMatch(/^A Claude Code session reached 93 % of its context in /);
    expect(await w.check()).toEqual([]);
  });
});
