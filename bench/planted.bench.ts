/**
 * Brief recall on the planted-facts corpus (bench/planted: sessions generated in the Claude Code and
 * Codex store shapes, and the real Claude Code, Codex and OpenCode CLIs captured against the mock
 * LLM): the sessions are indexed by the real adapters, briefed at the default budget and at 2000 tokens, and scored against facts.json.
 * Rows: recall by kind, overall recall (goal ≥ 95 % at 2000), superseded facts shown as current
 * (goal 0) and whether the planted secret leaked. `npx tsx bench/planted.bench.ts` runs it alone.
 */
import path from 'node:path';
import { defaultSettings } from '../shared/settings.js';
import { indexedFixtureHome } from '../testing/briefs/indexed-home.js';
import { writeLongSessions } from '../testing/briefs/long-planted.js';
import { copyPlantedCorpus, mergeReports, plantedSessions, readPlantedKey, recallPercent, scoreBrief, type PlantedKey } from '../testing/briefs/planted-recall.js';
import { openUserData } from '../electron/core/userdata/user-data.js';
import { createHandoffService } from '../electron/core/handoff/handoff-service.js';
import { goalRow, type BenchRow } from './harness.js';

const KINDS = ['goal', 'decision', 'rejection', 'correction', 'blocker', 'next', 'test'] as const;

export async function run(): Promise<BenchRow[]> {
  const key = readPlantedKey();
  const ctx = await indexedFixtureHome((home) => copyPlantedCorpus(home.home));
  const userData = openUserData(path.join(ctx.dataDir, 'user'));
  const settings = defaultSettings();
  const service = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => new Date('2026-11-23T12:00:00Z') });
  const rows: BenchRow[] = [];
  const sessions = plantedSessions(ctx.index, key);
  try {
    for (const budget of [settings.briefBudget, 2000]) {
      const reports = [];
      for (const s of sessions) {
        const brief = await service.generateBrief({ session: s.id, target: 'claude', budget });
        reports.push(scoreBrief(brief.text, s.agent, key));
      }
      const r = mergeReports(reports);
      const label = `planted facts @${budget} tokens`;
      const agents = sessions.map((s) => s.agent).join(', ');
      for (const kind of KINDS) {
        const slot = r.byKind[kind];
        if (slot) rows.push(goalRow('briefs', `${label}: ${kind} recall`, recallPercent(r, kind), '%', null, `${slot.found}/${slot.total}`));
      }
      const missed = r.missed.length ? `missed: ${r.missed.join(', ')}` : `${agents}; nothing missed`;
      rows.push(goalRow('briefs', `${label}: recall, all kinds`, recallPercent(r), '%', budget === 2000 ? { op: '≥', target: 95 } : null, missed));
      rows.push(goalRow('briefs', `${label}: stale facts shown as current`, r.staleShown.length, 'facts', { op: '<', target: 1 }, r.staleShown.join(', ') || undefined));
      rows.push(goalRow('briefs', `${label}: planted secret shown`, r.secretShown ? 1 : 0, 'briefs', { op: '<', target: 1 }));
    }
  } finally {
    userData.close();
    ctx.close();
  }
  return [...rows, ...(await longRows())];
}

const LONG_KINDS = ['decision', 'rejection', 'correction', 'blocker', 'next'] as const;

/**
 * The long sessions (testing/briefs/long-planted.ts): three seeds of 3,000 user turns each, many
 * facts of every kind in varied phrasing. Rows: recall per kind at 2000 tokens (goal ≥ 95 %),
 * superseded facts shown as current (goal 0), and the time one brief of such a session takes.
 */
async function longRows(): Promise<BenchRow[]> {
  let key: PlantedKey | null = null;
  const ctx = await indexedFixtureHome((home) => {
    key = writeLongSessions(home.home, [1, 2, 3].map((seed) => ({ seed, userTurns: 3000 })));
  });
  const userData = openUserData(path.join(ctx.dataDir, 'user'));
  const settings = defaultSettings();
  const service = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => new Date('2026-11-23T12:00:00Z') });
  const rows: BenchRow[] = [];
  try {
    const reports = [];
    const times: number[] = [];
    for (const s of key!.sessions) {
      const t0 = performance.now();
      const brief = await service.generateBrief({ session: s.id, target: 'claude', budget: 2000 });
      times.push(performance.now() - t0);
      reports.push(scoreBrief(brief.text, s.agent, key!));
    }
    const r = mergeReports(reports);
    const label = 'long planted sessions (3 × 3,000 turns) @2000 tokens';
    for (const kind of LONG_KINDS) {
      const slot = r.byKind[kind] ?? { found: 0, total: 0 };
      const missed = r.missed.filter((id) => key!.facts.find((f) => f.id === id)?.kind === kind);
      rows.push(goalRow('briefs', `${label}: ${kind} recall`, recallPercent(r, kind), '%', { op: '≥', target: 95 }, `${slot.found}/${slot.total}${missed.length ? `; missed ${missed.join(', ')}` : ''}`));
    }
    rows.push(goalRow('briefs', `${label}: stale facts shown as current`, r.staleShown.length, 'facts', { op: '<', target: 1 }, r.staleShown.join(', ') || undefined));
    rows.push(goalRow('briefs', `${label}: brief time (median of 3)`, [...times].sort((a, b) => a - b)[1]!, 'ms', null));
  } finally {
    userData.close();
    ctx.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
