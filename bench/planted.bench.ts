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
import { copyPlantedCorpus, mergeReports, plantedSessions, readPlantedKey, recallPercent, scoreBrief } from '../testing/briefs/planted-recall.js';
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
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
