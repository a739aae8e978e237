/**
 * Regenerates the committed planted-facts corpus: `npx tsx bench/planted/generate.ts`.
 * Writes `corpus/home/` (a HOME holding a Claude Code and a Codex store with the scenario) and
 * `facts.json` (the answer key). The stores are generated in code, shaped like the real ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FACTS, PLANTED_SECRET, TURNS } from './scenario.js';
import { PROJECT, writeClaude, writeCodex } from './stores.js';
import { PLANTED_DIR } from './paths.js';

export const SESSIONS = {
  claude: '5e551011-7a2b-4c3d-8e9f-0a1b2c3d4e5f',
  codex: '01a2f000-1111-7222-8333-944455556666',
} as const;

const home = path.join(PLANTED_DIR, 'corpus', 'home');
fs.rmSync(path.join(PLANTED_DIR, 'corpus'), { recursive: true, force: true });
writeClaude(home, SESSIONS.claude, TURNS);
writeCodex(home, SESSIONS.codex, TURNS);
const facts = {
  about: 'Planted facts of bench/planted/scenario.ts, one session per agent; `probe` must appear in `section` of the brief (stale: must not appear there).',
  generatedInCode: true,
  project: PROJECT,
  userTurns: TURNS.length,
  secret: PLANTED_SECRET,
  sessions: Object.entries(SESSIONS).map(([agent, id]) => ({ agent, id: `${agent}:${id}` })),
  facts: FACTS,
};
fs.writeFileSync(path.join(PLANTED_DIR, 'facts.json'), JSON.stringify(facts, null, 2) + '\n');
console.log(`wrote ${path.relative(process.cwd(), home)} and facts.json`);
