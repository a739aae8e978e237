/**
 * The planted-facts session: 28 user turns (a session resumed after every turn) in which the user
 * states decisions with reasons, rejections, a constraint, a correction, blockers (one resolved
 * later), next steps (one done later) among routine turns, and `npm test` fails twice and then
 * passes. Each agent adds its own structured records (todo lists, a plan file, a compaction
 * summary). `FACTS` is the answer key the brief is scored against (see facts.json beside it).
 */

/** A made-up credential planted in a blocker: it must never reach a brief unredacted. */
export const PLANTED_SECRET = 'ghp_P1antedSecretZx8Qw3Rt5Yu8Io2PlKj7Hg6F';

export type Step =
  | { kind: 'user'; text: string }
  | { kind: 'reply'; text: string }
  | { kind: 'shell'; command: string; output: string; exitCode: number }
  | { kind: 'read'; file: string; output: string }
  | { kind: 'edit'; file: string; before: string; after: string }
  | { kind: 'write'; file: string; content: string }
  /** A whole todo list: Claude TodoWrite, Codex update_plan, OpenCode todowrite. */
  | { kind: 'todo'; items: { text: string; status: 'pending' | 'in_progress' | 'completed' }[] }
  /** Compaction: Claude's compact summary, Codex `compacted`. `pending`/`decisions` are its lists. */
  | { kind: 'compact'; pending: string[]; decisions: string[] };

const failing = (test: string) =>
  `> invoice-export@0.1.0 test\n> node --test\n\n✖ ${test}\n  AssertionError: values are not equal\nℹ tests 6\nℹ pass 5\nℹ fail 1\nProcess exited with code 1`;
const passing = '> invoice-export@0.1.0 test\n> node --test\n\nℹ tests 6\nℹ pass 6\nℹ fail 0\nProcess exited with code 0';
const status = 'On branch feature/invoice-export\nChanges not staged for commit:\n\tmodified:   src/export.ts\n\nno changes added to commit';
const ack = (what: string) => ({ kind: 'reply' as const, text: `Okay, noted: ${what}.` });

/** One entry per user turn: the user's message and what the agent did and said after it. */
export const TURNS: Step[][] = [
  [
    { kind: 'user', text: 'Build the invoice export for the billing app: a CLI that exports invoices to CSV and uploads them to the finance bucket.' },
    { kind: 'shell', command: 'git status', output: status, exitCode: 0 },
    { kind: 'write', file: 'docs/PLAN.md', content: '# Invoice export plan\n\n## Steps\n1. Stream invoice rows into CSV\n2. Add the `--since` flag for incremental exports\n' },
    { kind: 'reply', text: 'I looked at the repository and wrote `docs/PLAN.md` with a first plan: stream invoice rows into CSV, then add incremental exports.' },
  ],
  [
    { kind: 'user', text: 'Run `git status` and tell me where we are.' },
    { kind: 'shell', command: 'git status', output: status, exitCode: 0 },
    { kind: 'reply', text: `Done. Here is what I found:\n\n\`\`\`\n${status}\n\`\`\`\n\nYou are on feature/invoice-export with one modified file.` },
  ],
  [
    { kind: 'user', text: 'We decided to write the exporter in TypeScript on Node 22, because the rest of the billing app is TypeScript and we share the invoice types.' },
    ack('TypeScript on Node 22'),
  ],
  [
    { kind: 'user', text: 'Read `src/export.ts` and tell me what it does.' },
    { kind: 'read', file: 'src/export.ts', output: 'export async function exportInvoices() {\n  // TODO\n}\n' },
    { kind: 'reply', text: 'That is the content of `src/export.ts`: an empty `exportInvoices` stub.' },
  ],
  [
    { kind: 'user', text: 'We will NOT use Python for the exporter: nobody on the team maintains Python services.' },
    ack('no Python'),
  ],
  [
    { kind: 'user', text: 'We decided to keep the export state in PostgreSQL because the billing app already runs it.' },
    ack('export state in PostgreSQL'),
  ],
  [
    { kind: 'user', text: 'The CSV header must stay exactly `invoice_id,customer,amount_cents,currency,issued_at` because finance imports it with a fixed parser.' },
    { kind: 'edit', file: 'src/csv.ts', before: 'const HEADER = [];', after: "const HEADER = ['invoice_id', 'customer', 'amount_cents', 'currency', 'issued_at'];" },
    { kind: 'reply', text: 'I set the header in `src/csv.ts` to exactly those five columns.' },
  ],
  [
    { kind: 'user', text: 'Run `npm test` and tell me what fails.' },
    { kind: 'shell', command: 'npm test', output: failing('writes the CSV header'), exitCode: 1 },
    { kind: 'reply', text: 'The test fails: `writes the CSV header` expects `currency` before `issued_at`, but the writer emits them the other way round. I will fix the column order next.' },
  ],
  [
    { kind: 'user', text: "We won't use the csv-stringify package; we will write the CSV by hand because we only need five columns." },
    ack('no csv-stringify'),
  ],
  [
    { kind: 'user', text: 'Looks good, continue.' },
    { kind: 'edit', file: 'src/csv.ts', before: 'row.issued_at, row.currency', after: 'row.currency, row.issued_at' },
    { kind: 'reply', text: 'Fixed the column order in `src/csv.ts`.' },
  ],
  [
    { kind: 'user', text: "Let's go with streaming the rows through a Node Transform stream, because exports can have two million invoices and must not load them all in memory." },
    { kind: 'todo', items: [{ text: 'Stream invoice rows through a Transform', status: 'in_progress' }, { text: 'Add the --since flag', status: 'pending' }] },
    ack('streaming through a Transform'),
  ],
  [
    { kind: 'user', text: 'We are blocked on the finance bucket credentials: the ops team has not issued the IAM role yet.' },
    ack('waiting for the IAM role'),
  ],
  [
    { kind: 'user', text: 'Read `package.json` and tell me which scripts are defined.' },
    { kind: 'read', file: 'package.json', output: '{\n  "name": "invoice-export",\n  "scripts": { "test": "node --test", "build": "tsc" }\n}\n' },
    { kind: 'reply', text: 'That is the content of `package.json`: `test` runs `node --test` and `build` runs `tsc`.' },
  ],
  [
    { kind: 'user', text: 'Next step after the streaming work: add a `--since` flag so finance can export only new invoices.' },
    ack('`--since` comes next'),
  ],
  [
    { kind: 'user', text: 'Thanks. Please keep going with the streaming writer.' },
    { kind: 'compact', pending: ['Add the --since flag for incremental exports'], decisions: ['Keep amounts as integer cents end to end'] },
    { kind: 'edit', file: 'src/stream.ts', before: '', after: 'export class InvoiceCsv extends Transform {}' },
    { kind: 'reply', text: 'The streaming writer is in `src/stream.ts` as an `InvoiceCsv` Transform.' },
  ],
  [
    { kind: 'user', text: "Correction: we will not keep the export state in PostgreSQL after all; we'll store it in a local SQLite file, because the exporter runs as a cron job on a box without database access." },
    ack('SQLite instead of PostgreSQL'),
  ],
  [
    { kind: 'user', text: 'Run `npm test` again.' },
    { kind: 'shell', command: 'npm test', output: failing('streams two million rows'), exitCode: 1 },
    { kind: 'reply', text: 'One test still fails: `streams two million rows` times out because the Transform does not respect backpressure.' },
  ],
  [
    { kind: 'user', text: 'Ok, fix the backpressure.' },
    { kind: 'edit', file: 'src/stream.ts', before: 'this.push(line)', after: 'if (!this.push(line)) await once(this, "drain")' },
    { kind: 'reply', text: 'I made the Transform wait for `drain` when the buffer is full.' },
  ],
  [
    { kind: 'user', text: 'We agreed to name the output files `invoices-YYYY-MM-DD.csv` so finance can sort them by date.' },
    ack('file naming'),
  ],
  [
    { kind: 'user', text: 'Run `git status` and tell me what changed.' },
    { kind: 'shell', command: 'git status', output: status.replace('src/export.ts', 'src/stream.ts'), exitCode: 0 },
    { kind: 'reply', text: `Done. Here is what I found:\n\n\`\`\`\n${status.replace('src/export.ts', 'src/stream.ts')}\n\`\`\`\n\nThat is the full output of the command.` },
  ],
  [
    { kind: 'user', text: "We're not going to use S3 multipart uploads: the files stay under 100 MB." },
    ack('single-part uploads'),
  ],
  [
    { kind: 'user', text: `Still blocked: the staging database snapshot is waiting on a security review (ticket SEC-4411, reviewer token ${PLANTED_SECRET}), so we can't test against real invoices.` },
    ack('staging snapshot blocked'),
  ],
  [
    { kind: 'user', text: 'Good news: the finance bucket IAM role has been granted, so that blocker is resolved.' },
    ack('IAM role granted'),
  ],
  [
    { kind: 'user', text: 'Run `npm test` now.' },
    { kind: 'shell', command: 'npm test', output: passing, exitCode: 0 },
    { kind: 'reply', text: 'All 6 tests pass now.' },
  ],
  [
    { kind: 'user', text: 'The `--since` flag is done and merged.' },
    ack('`--since` done'),
  ],
  [
    {
      kind: 'user',
      text: 'Next steps:\n1. Wire the uploader to the finance bucket now that the role exists.\n2. Add a retry with exponential backoff for failed uploads.\n3. Write the runbook for the nightly cron job.',
    },
    {
      kind: 'todo',
      items: [
        { text: 'Stream invoice rows through a Transform', status: 'completed' },
        { text: 'Add the --since flag', status: 'completed' },
        { text: 'Wire the uploader to the finance bucket', status: 'pending' },
        { text: 'Add an integration test for the uploader against a local MinIO', status: 'pending' },
      ],
    },
    ack('three next steps'),
  ],
  [
    { kind: 'user', text: 'We decided to run the export nightly at 02:00 UTC because finance reconciles in the morning.' },
    ack('02:00 UTC'),
  ],
  [
    { kind: 'user', text: 'Thanks, run `npm test` once more and summarize where we are.' },
    { kind: 'shell', command: 'npm test', output: passing, exitCode: 0 },
    {
      kind: 'reply',
      text: 'All 6 tests pass. The exporter streams invoices through `InvoiceCsv`, writes the fixed five-column header and keeps its state in SQLite. Still open: the uploader, retries, the runbook, and testing against the staging snapshot once the security review is through.',
    },
  ],
];

export type FactKind = 'goal' | 'decision' | 'rejection' | 'correction' | 'blocker' | 'next' | 'test' | 'stale';

export interface PlantedFact {
  id: string;
  kind: FactKind;
  /** Distinctive words the brief must show (in `section`), or must not show as current (`stale`). */
  probe: string;
  /** The brief section it belongs in. */
  section: string;
  /** 1-based user turn it was stated in (or recorded at). */
  turn: number;
  /** Only some agents record it (structured records); absent = every agent. */
  agents?: string[];
}

const DEC = 'Settled decisions';
const REJ = 'Rejected alternatives';
const OPEN = 'Open items and blockers';
const STATE = 'Current state and next steps';

export const FACTS: PlantedFact[] = [
  { id: 'goal', kind: 'goal', probe: 'a CLI that exports invoices to CSV', section: 'Original goal', turn: 1 },
  { id: 'D1', kind: 'decision', probe: 'TypeScript on Node 22', section: DEC, turn: 3 },
  { id: 'D1-reason', kind: 'decision', probe: 'we share the invoice types', section: DEC, turn: 3 },
  { id: 'C1', kind: 'decision', probe: 'invoice_id,customer,amount_cents,currency,issued_at', section: DEC, turn: 7 },
  { id: 'D3', kind: 'decision', probe: 'Node Transform stream', section: DEC, turn: 11 },
  { id: 'D3-reason', kind: 'decision', probe: 'two million invoices', section: DEC, turn: 11 },
  { id: 'D4', kind: 'decision', probe: 'invoices-YYYY-MM-DD.csv', section: DEC, turn: 19 },
  { id: 'D5', kind: 'decision', probe: '02:00 UTC', section: DEC, turn: 27 },
  { id: 'D6-summary', kind: 'decision', probe: 'integer cents end to end', section: DEC, turn: 15, agents: ['codex'] },
  { id: 'R1', kind: 'rejection', probe: 'NOT use Python', section: REJ, turn: 5 },
  { id: 'R2', kind: 'rejection', probe: 'csv-stringify', section: REJ, turn: 9 },
  { id: 'R3', kind: 'rejection', probe: 'S3 multipart uploads', section: REJ, turn: 21 },
  { id: 'K1', kind: 'correction', probe: 'local SQLite file', section: DEC, turn: 16 },
  { id: 'B2', kind: 'blocker', probe: 'security review', section: OPEN, turn: 22 },
  { id: 'N2a', kind: 'next', probe: 'Wire the uploader', section: STATE, turn: 26 },
  { id: 'N2b', kind: 'next', probe: 'exponential backoff', section: STATE, turn: 26 },
  { id: 'N2c', kind: 'next', probe: 'runbook for the nightly cron job', section: STATE, turn: 26 },
  { id: 'N3-todo', kind: 'next', probe: 'local MinIO', section: STATE, turn: 26, agents: ['claude', 'codex'] },
  { id: 'T', kind: 'test', probe: 'npm test` passed', section: STATE, turn: 28 },
  // Superseded: must not be shown as current anywhere outside the excerpt's history.
  { id: 'D2-stale', kind: 'stale', probe: 'keep the export state in PostgreSQL because', section: DEC, turn: 6 },
  { id: 'B1-stale', kind: 'stale', probe: 'ops team has not issued', section: OPEN, turn: 12 },
  { id: 'N1-stale', kind: 'stale', probe: 'export only new invoices', section: STATE, turn: 14 },
  { id: 'T-stale', kind: 'stale', probe: 'npm test` failed', section: STATE, turn: 17 },
];
