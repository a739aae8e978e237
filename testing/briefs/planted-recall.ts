/**
 * Scores a Markdown brief against a planted-facts answer key (bench/planted/facts.json): which
 * facts it carries in the section they belong to, which superseded facts it still shows as current,
 * and whether the planted secret leaked. Shared by the unit test and the bench row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PlantedFact {
  id: string;
  kind: 'goal' | 'decision' | 'rejection' | 'correction' | 'blocker' | 'next' | 'test' | 'stale';
  probe: string;
  section: string;
  turn: number;
  agents?: string[];
}

export interface PlantedKey {
  secret: string;
  userTurns: number;
  sessions: { agent: string; id: string }[];
  facts: PlantedFact[];
}

export interface RecallReport {
  /** Facts carried / facts planted, per kind (stale facts are not counted here). */
  byKind: Record<string, { found: number; total: number }>;
  missed: string[];
  /** Superseded facts the brief still shows in a section that says what is current. */
  staleShown: string[];
  secretShown: boolean;
}

/** Sections that state what is current; the excerpt may quote history, these may not. */
const CURRENT_SECTIONS = ['Current state and next steps', 'Settled decisions', 'Rejected alternatives', 'Open items and blockers'];

export function plantedDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/planted');
}

export function readPlantedKey(dir = plantedDir()): PlantedKey {
  return JSON.parse(fs.readFileSync(path.join(dir, 'facts.json'), 'utf8')) as PlantedKey;
}

/** Copies the generated stores and any real-agent captures (captured/<agent>/home) into a HOME. */
export function copyPlantedCorpus(home: string, dir = plantedDir()): void {
  fs.cpSync(path.join(dir, 'corpus', 'home'), home, { recursive: true });
  const captured = path.join(dir, 'captured');
  if (!fs.existsSync(captured)) return;
  for (const agent of fs.readdirSync(captured).sort()) {
    const agentHome = path.join(captured, agent, 'home');
    if (fs.existsSync(agentHome)) fs.cpSync(agentHome, home, { recursive: true });
  }
}

/** Minimal view of the index needed to find the captured sessions. */
export interface SessionLister {
  listSessions(q: { project?: string; limit?: number }): { sessions: { id: string; agent: string; userTurns: number }[] };
}

/**
 * The sessions to score: the generated ones named in facts.json (agent = its name) and the real-CLI
 * captures (agent = `<name>-cli`, which record-only facts do not apply to: the mock writes no todo
 * lists or summaries).
 */
export function plantedSessions(index: SessionLister, key: PlantedKey): { agent: string; id: string }[] {
  const captured = index
    .listSessions({ project: 'baton-planted-', limit: 100 })
    .sessions.filter((s) => s.userTurns === key.userTurns)
    .map((s) => ({ agent: `${s.agent}-cli`, id: s.id }))
    .sort((a, b) => a.agent.localeCompare(b.agent));
  return [...key.sessions, ...captured];
}

export function briefSection(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 4);
  const end = rest.search(/^## /m);
  return end >= 0 ? rest.slice(0, end) : rest;
}

function where(text: string, fact: PlantedFact): string {
  const section = briefSection(text, fact.section);
  // Next steps are the list under "Next steps:", not a quote of the last request.
  if (fact.kind === 'next') return section.slice(Math.max(0, section.indexOf('Next steps:')));
  return section;
}

/** The state section without its "Done:" list: a finished step shown there is shown as done, not as current. */
function withoutDone(section: string): string {
  return section.replace(/(?:^|\n)Done:\n(?:- [^\n]*\n?)*/g, '\n');
}

export function scoreBrief(text: string, agent: string, key: PlantedKey): RecallReport {
  const report: RecallReport = { byKind: {}, missed: [], staleShown: [], secretShown: text.includes(key.secret) };
  for (const fact of key.facts) {
    if (fact.agents && !fact.agents.includes(agent)) continue;
    if (fact.kind === 'stale') {
      const shown = CURRENT_SECTIONS.some((s) => withoutDone(briefSection(text, s)).includes(fact.probe));
      if (shown) report.staleShown.push(fact.id);
      continue;
    }
    const slot = (report.byKind[fact.kind] ??= { found: 0, total: 0 });
    slot.total++;
    if (where(text, fact).includes(fact.probe)) slot.found++;
    else report.missed.push(fact.id);
  }
  return report;
}

/** Sums reports (e.g. one per agent) into one. */
export function mergeReports(reports: RecallReport[]): RecallReport {
  const out: RecallReport = { byKind: {}, missed: [], staleShown: [], secretShown: false };
  for (const r of reports) {
    for (const [kind, v] of Object.entries(r.byKind)) {
      const slot = (out.byKind[kind] ??= { found: 0, total: 0 });
      slot.found += v.found;
      slot.total += v.total;
    }
    out.missed.push(...r.missed);
    out.staleShown.push(...r.staleShown);
    out.secretShown ||= r.secretShown;
  }
  return out;
}

export function recallPercent(r: RecallReport, kind?: string): number {
  const slots = kind ? [r.byKind[kind] ?? { found: 0, total: 0 }] : Object.values(r.byKind);
  const total = slots.reduce((a, s) => a + s.total, 0);
  return total === 0 ? 100 : (100 * slots.reduce((a, s) => a + s.found, 0)) / total;
}
