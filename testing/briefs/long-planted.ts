/**
 * Test support: LONG planted-facts sessions, generated from a seed. Thousands of user turns of
 * routine work (reads, edits, test runs, questions, "continue") in which the user states, in varied
 * everyday phrasing, many decisions, rejected options, corrections of earlier decisions, blockers
 * (some resolved later) and next steps (some done later). Written as Claude Code transcripts and
 * scored with the planted-facts key shape (planted-recall.ts): every fact must reach its section,
 * and no corrected, resolved or finished fact may be shown as current.
 */
import type { PlantedFact, PlantedKey } from './planted-recall.js';
import { writeClaudeTranscript, type Turn } from './claude-transcript.js';

export interface LongSessionSpec {
  seed: number;
  /** User turns in all (facts included). */
  userTurns: number;
}

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Subjects: each fact gets its own area and option, so facts never share their distinctive words by accident.
const AREAS = [
  'session storage', 'invoice rendering', 'webhook retries', 'audit logging', 'feature flags', 'search indexing', 'image thumbnails',
  'password hashing', 'email delivery', 'rate limiting', 'report scheduling', 'tenant isolation', 'config loading', 'metrics export',
  'PDF exports', 'background jobs', 'schema migrations', 'request tracing', 'error reporting', 'currency conversion', 'address validation',
  'file uploads', 'cache invalidation', 'API pagination', 'timezone handling', 'tax calculation', 'refund approval', 'user onboarding',
  'dunning emails', 'ledger reconciliation', 'CSV imports', 'access tokens', 'mobile push', 'search ranking', 'locale fallback', 'fraud scoring',
];
const OPTIONS = [
  'Redis', 'Memcached', 'Kafka', 'RabbitMQ', 'Celery', 'Temporal', 'GraphQL', 'gRPC', 'MongoDB', 'DynamoDB', 'Elasticsearch', 'Meilisearch',
  'Puppeteer', 'wkhtmltopdf', 'Sentry', 'Rollbar', 'OpenTelemetry', 'Jaeger', 'LaunchDarkly', 'Unleash', 'bcrypt', 'Argon2', 'SendGrid',
  'Postmark', 'Sidekiq', 'BullMQ', 'Alembic', 'Flyway', 'Prometheus', 'StatsD', 'ImageMagick', 'libvips', 'Cloudinary', 'Terraform',
  'Pulumi', 'SQLAlchemy', 'Prisma', 'Knex', 'Zod', 'Joi', 'Pydantic', 'Marshmallow', 'Lodash', 'Ramda', 'Moment', 'Luxon', 'Stripe Tax',
  'Avalara', 'Twilio', 'OneSignal', 'Firebase', 'Auth0', 'Keycloak', 'Vault', 'Doppler', 'Consul', 'etcd', 'NATS', 'ZeroMQ', 'Nginx',
  'Envoy', 'Traefik', 'HAProxy', 'Varnish', 'Fastly', 'CloudFront', 'MinIO', 'Ceph', 'ClickHouse', 'TimescaleDB', 'InfluxDB', 'Grafana',
];
const REASONS = [
  'the ops team already runs it', 'it keeps the deploy to one binary', 'finance audits need the full history', 'we need it to work offline',
  'the latency budget is 50 ms', 'nobody on the team knows it well', 'the license does not allow resale', 'it doubles our hosting bill',
  'the vendor lock-in is too strong', 'it has no Python 3.12 wheels yet', 'support for it ends next year', 'it adds a second datastore to operate',
];
const THINGS = [
  'the production database credentials from ops', 'the security review of the token flow', 'a sandbox account from the payment provider',
  'the flaky integration runner on CI', 'legal sign-off on the retention policy', 'the DNS change for the staging domain',
  'the upstream fix in the PDF library', 'quota for the new queue cluster', 'the design for the onboarding screens',
  'access to the analytics warehouse', 'the expired TLS certificate on staging', 'the vendor webhook signing secret',
];
const STEPS = [
  'add a retry budget to the webhook sender', 'write the migration for the ledger table', 'backfill the audit log for March',
  'document the feature flag naming scheme', 'wire the metrics exporter into the worker', 'load-test the pagination endpoint',
  'add the timezone column to reports', 'port the refund approval rules', 'split the thumbnail job into two queues',
  'rotate the access token signing key', 'draft the runbook for dunning failures', 'add contract tests for the tax service',
  'profile the CSV import on a large file', 'remove the legacy address validator', 'tag the release candidate build',
];
const MODULES = ['billing', 'ledger', 'reports', 'webhooks', 'auth', 'uploads', 'search', 'jobs', 'tax', 'notify'];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

/** Draws without replacement, so no two facts share a subject. */
function drawer<T>(r: () => number, list: readonly T[]): () => T {
  const pool = [...list];
  return () => {
    if (!pool.length) throw new Error('long-planted: subject pool exhausted');
    return pool.splice(Math.floor(r() * pool.length), 1)[0]!;
  };
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

type Planted = { text: string; facts: Omit<PlantedFact, 'turn'>[] };

/** Decisions in the phrasings people use. The probe is the option and its area. */
const DECISION: ((o: string, a: string, why: string) => string)[] = [
  (o, a, why) => `We decided to use ${o} for ${a} because ${why}.`,
  (o, a, why) => `Let's go with ${o} for ${a}, since ${why}.`,
  (o, a, why) => `Decision: ${o} for ${a}. The reason is that ${why}.`,
  (o, a, why) => `We'll use ${o} for ${a}; ${why}.`,
  (o, a, why) => `Going with ${o} for ${a} because ${why}.`,
  (o, a, why) => `I've settled on ${o} for ${a} — ${why}.`,
  (o, a, why) => `We agreed on ${o} for ${a}, because ${why}.`,
  (o, a, why) => `Ok so the plan is: we're going with ${o} for ${a}, ${why}.`,
];
const REJECTION: ((o: string, a: string, why: string) => string)[] = [
  (o, a, why) => `We will not use ${o} for ${a}: ${why}.`,
  (o, a, why) => `We won't adopt ${o} for ${a}; ${why}.`,
  (o, a, why) => `Let's not use ${o} for ${a}, ${why}.`,
  (o, a, why) => `${o} for ${a} is ruled out because ${why}.`,
  (o, a, why) => `We considered ${o} for ${a} but decided against it: ${why}.`,
  (o, a, why) => `No ${o} for ${a} — ${why}.`,
  (o, a, why) => `I'd rather not pull in ${o} for ${a}; ${why}.`,
  (o, a, why) => `Don't use ${o} for ${a}, ${why}.`,
  (o, a, why) => `${o} for ${a} is off the table: ${why}.`,
  (o, a, why) => `We're not going with ${o} for ${a} since ${why}.`,
  (o, a, why) => `Rejected: ${o} for ${a}, ${why}.`,
  (o, a, why) => `Please avoid ${o} for ${a} — ${why}.`,
  (o, a, why) => `We dropped ${o} for ${a}; ${why}.`,
];
/** A correction names the new option, the area and the old option it replaces. */
const CORRECTION: ((n: string, a: string, old: string) => string)[] = [
  (n, a, old) => `Actually, let's use ${n} for ${a} instead of ${old}.`,
  (n, a, old) => `Correction: ${n} for ${a}, not ${old}.`,
  (n, a, old) => `Scratch that — ${n} for ${a} rather than ${old}, the numbers changed.`,
  (n, a, old) => `Change of plan: we'll use ${n} for ${a} instead of ${old}.`,
  (n, a, old) => `On second thought, ${n} for ${a}; ${old} was the wrong call.`,
  (n, a, old) => `I was wrong earlier: ${n} for ${a}, we're no longer using ${old}.`,
];
const BLOCKER: ((t: string) => string)[] = [
  (t) => `Blocker: ${t}.`,
  (t) => `We're blocked on ${t}.`,
  (t) => `Waiting for ${t} before we can deploy.`,
  (t) => `I can't merge until we have ${t}.`,
  (t) => `Stuck on ${t} for now.`,
  (t) => `This is blocked by ${t}.`,
];
const UNBLOCK: ((t: string) => string)[] = [(t) => `Good news: ${t} is resolved now.`, (t) => `${cap(t)} has been sorted out, so we are unblocked.`, (t) => `${cap(t)} was granted this morning.`];
const NEXT: ((s: string) => string)[] = [
  (s) => `Next, we need to ${s}.`,
  (s) => `After that, ${s}.`,
  (s) => `TODO: ${s}.`,
  (s) => `We still need to ${s}.`,
  (s) => `Before merging, ${s}.`,
  (s) => `Next step: ${s}.`,
  (s) => `Then we'll ${s}.`,
];
const DONE: ((s: string) => string)[] = [(s) => `The work to ${s} is done.`, (s) => `OK, "${s}" has been finished and merged.`];

function routine(r: () => number, n: number): { user: string; tools: Turn[]; reply: string } {
  const mod = pick(r, MODULES);
  const file = `src/${mod}/${pick(r, ['service', 'models', 'handlers', 'utils', 'client'])}.py`;
  const fn = `${pick(r, ['load', 'parse', 'sync', 'build', 'apply', 'check'])}_${pick(r, ['rows', 'totals', 'batch', 'state', 'rules'])}`;
  const roll = r();
  if (roll < 0.2) return { user: pick(r, ['ok, continue', 'Looks good.', 'Go on.', 'Thanks, keep going.', 'yes', 'Nice, carry on.']), tools: [], reply: `Continuing with ${file}.` };
  if (roll < 0.4)
    return {
      user: `Read \`${file}\` and tell me what \`${fn}\` does.`,
      tools: [{ role: 'tool', name: 'Read', input: { file_path: `/home/ana/projects/platform/${file}` }, result: `def ${fn}(items):\n    return [i for i in items if i]\n` }],
      reply: `\`${fn}\` filters out empty items and returns the rest (${n}).`,
    };
  if (roll < 0.55)
    return {
      user: 'Run the test suite.',
      tools: [{ role: 'tool', name: 'Bash', input: { command: 'pytest -q' }, result: `${120 + (n % 7)} passed in 4.2s` }],
      reply: 'All tests pass.',
    };
  if (roll < 0.7)
    return {
      user: `Rename \`${fn}\` to \`${fn}_v2\` in \`${file}\`.`,
      tools: [{ role: 'tool', name: 'Edit', input: { file_path: `/home/ana/projects/platform/${file}`, old_string: `def ${fn}(`, new_string: `def ${fn}_v2(` }, result: 'The file has been updated.' }],
      reply: `Renamed \`${fn}\` in \`${file}\`.`,
    };
  // Now and then a remark the extractor takes for a fact too: the planted ones must not drown in them.
  if (roll < 0.715)
    return {
      user: pick(r, [
        `No luck, the import still fails in \`${file}\`.`,
        `Keep the ${mod} fixtures as they are for now.`,
        `We should use the existing \`${fn}\` helper in ${mod}.`,
        `Then we'll look at \`${file}\` again.`,
        `Don't change the public signature of \`${fn}\`.`,
        `Don't rename anything in \`${file}\` yet.`,
      ]),
      tools: [],
      reply: 'Understood.',
    };
  if (roll < 0.85) return { user: `Why does \`${fn}\` return an empty list for the ${mod} fixtures?`, tools: [], reply: `Because the ${mod} fixtures have no active rows; I checked ${file}.` };
  return {
    user: pick(r, [
      `Show me the last error in the ${mod} logs.`,
      `Explain the ${mod} module layout briefly.`,
      `Look at \`${file}\`, something is off with the imports.`,
      `Format \`${file}\` and fix the lint warnings.`,
      `Add a docstring to \`${fn}\`.`,
    ]),
    tools: [{ role: 'tool', name: 'Bash', input: { command: `ruff check ${file}` }, result: 'All checks passed!' }],
    reply: `Done with ${file}.`,
  };
}

export interface LongSession {
  sessionId: string;
  turns: Turn[];
  facts: PlantedFact[];
}

/**
 * One long session: the counts are fixed (so every seed plants the same number of each kind);
 * where each fact falls, how it is phrased and what surrounds it come from the seed.
 */
export function longSession({ seed, userTurns }: LongSessionSpec): LongSession {
  const r = rng(seed);
  const area = drawer(r, AREAS);
  const option = drawer(r, OPTIONS);
  const why = () => pick(r, REASONS);
  const thing = drawer(r, THINGS);
  const step = drawer(r, STEPS);
  const planted: Planted[] = [];
  // Decisions and rejections in every template, so each phrasing is scored.
  const nDecisions = 8;
  const nRejections = 13;
  for (let i = 0; i < nDecisions; i++) {
    const [o, a] = [option(), area()];
    planted.push({ text: DECISION[(i + seed) % DECISION.length]!(o, a, why()), facts: [{ id: `D${i + 1}`, kind: 'decision', probe: `${o} for ${a}`, section: 'Settled decisions' }] });
  }
  for (let i = 0; i < nRejections; i++) {
    const [o, a] = [option(), area()];
    planted.push({ text: REJECTION[(i + seed) % REJECTION.length]!(o, a, why()), facts: [{ id: `R${i + 1}`, kind: 'rejection', probe: `${o} for ${a}`, section: 'Rejected alternatives' }] });
  }
  // Corrections come later than the decision they correct: planted as a pair placed in order below.
  const corrections: [Planted, Planted][] = [];
  for (let i = 0; i < 6; i++) {
    const [old, next, a] = [option(), option(), area()];
    corrections.push([
      { text: DECISION[(i + seed + 3) % DECISION.length]!(old, a, why()), facts: [{ id: `C${i + 1}-stale`, kind: 'stale', probe: `${old} for ${a}`, section: 'Settled decisions' }] },
      { text: CORRECTION[(i + seed) % CORRECTION.length]!(next, a, old), facts: [{ id: `C${i + 1}`, kind: 'correction', probe: `${next} for ${a}`, section: 'Settled decisions' }] },
    ]);
  }
  const blockers: [Planted, Planted | null][] = [];
  for (let i = 0; i < 6; i++) {
    const t = thing();
    const resolved = i >= 4;
    blockers.push([
      { text: BLOCKER[(i + seed) % BLOCKER.length]!(t), facts: [{ id: resolved ? `B${i + 1}-stale` : `B${i + 1}`, kind: resolved ? 'stale' : 'blocker', probe: t, section: 'Open items and blockers' }] },
      resolved ? { text: UNBLOCK[i % UNBLOCK.length]!(t), facts: [] } : null,
    ]);
  }
  const steps: [Planted, Planted | null][] = [];
  for (let i = 0; i < 8; i++) {
    const s = step();
    const done = i >= 6;
    steps.push([
      { text: NEXT[(i + seed) % NEXT.length]!(s), facts: [{ id: done ? `N${i + 1}-stale` : `N${i + 1}`, kind: done ? 'stale' : 'next', probe: s, section: 'Current state and next steps' }] },
      done ? { text: DONE[i % DONE.length]!(s), facts: [] } : null,
    ]);
  }
  // Slots: facts spread over the whole session; a pair's second half lands after its first.
  const slots = new Map<number, Planted[]>();
  const place = (p: Planted, lo: number, hi: number) => {
    const turn = Math.max(2, Math.min(userTurns - 2, lo + Math.floor(r() * Math.max(1, hi - lo))));
    (slots.get(turn) ?? slots.set(turn, []).get(turn)!).push(p);
    return turn;
  };
  for (const p of planted) place(p, 2, userTurns - 2);
  for (const [first, second] of [...corrections, ...blockers, ...steps]) {
    const at = place(first, 2, Math.floor(userTurns * 0.7));
    if (second) place(second, at + 1, userTurns - 2);
  }

  const turns: Turn[] = [];
  const facts: PlantedFact[] = [];
  turns.push({ role: 'user', text: 'Help me finish the platform billing service: the refund flow, the ledger and the reports.' });
  turns.push({ role: 'assistant', text: 'I looked at the repository; let us start with the refund flow.' });
  for (let n = 1; n < userTurns; n++) {
    const here = slots.get(n);
    if (here) {
      for (const p of here) {
        // Facts are said alone or amid a routine request, as people do.
        const text = r() < 0.3 ? `${routine(r, n).user.replace(/[.!?]?$/, '.')} ${p.text}` : p.text;
        turns.push({ role: 'user', text });
        turns.push({ role: 'assistant', text: 'Okay, noted.' });
        for (const f of p.facts) facts.push({ ...f, turn: n });
      }
      continue;
    }
    const w = routine(r, n);
    turns.push({ role: 'user', text: w.user }, ...w.tools, { role: 'assistant', text: w.reply });
  }
  return { sessionId: `${seed.toString(16).padStart(8, '0')}-10ab-4cde-8f01-${String(userTurns).padStart(12, '0')}`, turns, facts };
}

export const LONG_PROJECT = '/home/ana/projects/platform';

/** Writes the sessions into `home` as Claude Code transcripts and returns their answer key. */
export function writeLongSessions(home: string, specs: LongSessionSpec[]): PlantedKey {
  const key: PlantedKey = { secret: '\u0000no secret planted\u0000', userTurns: 0, sessions: [], facts: [] };
  for (const spec of specs) {
    const s = longSession(spec);
    writeClaudeTranscript({ home, sessionId: s.sessionId, cwd: LONG_PROJECT, gitBranch: 'feature/refunds', turns: s.turns });
    key.sessions.push({ agent: `claude-${spec.seed}`, id: `claude:${s.sessionId}` });
    // Facts apply to their own session only.
    key.facts.push(...s.facts.map((f) => ({ ...f, id: `${spec.seed}:${f.id}`, agents: [`claude-${spec.seed}`] })));
  }
  return key;
}
