import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { BriefData, BriefItem } from '../brief-data.js';
import { DelimitRecordSchema, delimitId, toDelimitRecord, writeDelimitRecord } from './delimit.js';
import { renderGovZero, validateHandoffDocument, REQUIRED_SECTIONS } from './govzero.js';
import { acceptEnvelope, EnvelopeExpiredError, HandoffEnvelopeSchema, toEnvelope } from './envelope.js';
import { writeContextRelay } from './context-relay.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');

const item = (text: string): BriefItem => ({ text, source: 'checkpoint', seq: null, corrects: [] });

function briefData(cwd: string): BriefData {
  return {
    compactionSummary: null,
    omitted: {},
    session: {
      id: 'claude:abc',
      agent: 'claude',
      nativeId: 'abc',
      title: null,
      cwd,
      gitBranch: 'feature/login',
      gitCommit: null,
      model: 'm',
      startedAt: '2026-11-22T09:00:00.000Z',
      updatedAt: '2026-11-22T11:00:00.000Z',
      firstPrompt: 'Add a login form',
      userTurns: 2,
      messageCount: 9,
      toolNames: ['Write'],
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      parentId: null,
      sourcePath: '/x.jsonl',
      bytes: 1,
    },
    now: NOW.toISOString(),
    checkpoint: null,
    staleness: null,
    goal: 'Add a login form',
    state: {
      source: 'last_assistant_message',
      limitStop: null,
      summary: 'Form added. TODO: wire token=abc later ...',
      summarySeq: 8,
      lastRequest: null,
      pendingFiles: [],
      pendingSince: 'passing_check',
      nextSteps: [item('Add logout')],
      itemsCompleted: [item('Form')],
    },
    decisions: [item('Use JWT')],
    rejected: [],
    open: { blockers: [item('Design missing')], itemsAdded: [item('Logout')] },
    files: [
      { path: 'src/login.ts', action: 'written', tool: 'Write', seq: 3, times: 1 },
      { path: 'src/gone.ts', action: 'deleted', tool: 'apply_patch', seq: 2, times: 1 },
    ],
    filesTotal: 2,
    declaredFiles: [],
    verification: [{ kind: 'test', command: 'npm test', outcome: 'passed', exitCode: 0, seq: 5, tool: 'Bash', failedBefore: null }],
    git: { atCheckpoint: null, drift: null },
    instructionFiles: [],
    excerpt: { total: 0, sampled: false, messages: [], userSeqs: [], covered: [] },
    toolCalls: [],
  };
}

describe('seed-format exports', () => {
  let tmp: { dir: string; cleanup(): void };
  let cwd: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-exports-');
    cwd = path.join(tmp.dir, 'proj');
    fs.mkdirSync(path.join(cwd, 'src'), { recursive: true });
    fs.writeFileSync(path.join(cwd, 'src', 'login.ts'), 'export {}\n');
  });
  afterEach(() => tmp.cleanup());

  /** The same brief with facts taken from the conversation: a correction, a rejection, cited messages. */
  function conversational(): BriefData {
    const data = briefData(cwd);
    data.decisions.push({ text: 'Store state in SQLite', source: 'user', seq: 40, corrects: [12] });
    data.rejected.push({ text: 'We will not use Redis', source: 'user', seq: 18, corrects: [] });
    data.open.blockers.push({ text: 'Waiting for the IAM role', source: 'user', seq: 22, corrects: [] });
    data.state.nextSteps.push({ text: 'Add retries', source: 'todo', seq: 50, corrects: [] });
    return data;
  }

  it('carries rejected alternatives and the message each conversation fact came from in every format', () => {
    const data = conversational();
    const record = toDelimitRecord(data, NOW);
    expect(record.key_decisions).toEqual(['Use JWT', 'Store state in SQLite (#40)', 'Rejected: We will not use Redis (#18)']);
    expect(record.blockers).toEqual(['Design missing', 'Waiting for the IAM role (#22)']);
    expect(record.items_added).toEqual(['Logout', 'Add logout', 'Add retries (#50)']);

    const doc = renderGovZero(data, cwd, { adrId: 'ADR-0.0.25' });
    expect(validateHandoffDocument(doc, cwd)).toEqual([]);
    expect(doc).toContain('- Rejected: We will not use Redis (#18)');
    expect(doc).toContain('- Blocked: Waiting for the IAM role (#22)');

    const env = toEnvelope(data, 'codex', NOW, 300);
    expect(env.accumulated_context).toMatchObject({ rejected_alternatives: ['We will not use Redis (#18)'], next_steps: ['Add logout', 'Add retries (#50)'] });

    writeContextRelay(data, cwd);
    const adrs = fs.readFileSync(path.join(cwd, 'decisions.md'), 'utf8');
    expect(adrs).toContain('## ADR-002: Store state in SQLite\n- Date: 2026-11-22\n- Status: Accepted\n- Context: message #40 of session claude:abc (corrects #12)');
    expect(adrs).toContain('## ADR-003: We will not use Redis\n- Date: 2026-11-22\n- Status: Rejected');
    const todos = JSON.parse(fs.readFileSync(path.join(cwd, 'todos.json'), 'utf8')) as { todos: { title: string; status: string; notes: string }[] };
    expect(todos.todos.find((t) => t.title === 'Waiting for the IAM role')).toMatchObject({ status: 'blocked', notes: 'blocker in claude:abc #22' });
  });

  describe('Delimit seven-field record', () => {
    it('builds a valid record and writes it only where asked', () => {
      expect(delimitId(new Date('2026-05-12T14:30:12.345Z'))).toBe('session_20260512_143012');
      const record = toDelimitRecord(briefData(cwd), NOW);
      expect(record).toEqual({
        id: 'session_20261122_120000',
        timestamp: '2026-11-22T12:00:00.000Z',
        venture: 'proj',
        summary: 'Form added. TODO: wire token=abc later ...',
        items_completed: ['Form'],
        items_added: ['Logout', 'Add logout'],
        key_decisions: ['Use JWT'],
        blockers: ['Design missing'],
        files_changed: ['src/login.ts', 'src/gone.ts'],
      });
      const dir = path.join(tmp.dir, '.delimit', 'sessions');
      const file = writeDelimitRecord(record, dir);
      expect(file).toBe(path.join(dir, 'session_20261122_120000.json'));
      expect(DelimitRecordSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))).toEqual(record);
      expect(() => DelimitRecordSchema.parse({ ...record, id: 'session-1' })).toThrow(/session_YYYYMMDD_HHMMSS/);
    });
  });

  describe('GovZero govzero.handoff.v1', () => {
    const valid = () => renderGovZero(briefData(cwd), cwd, { adrId: 'ADR-0.0.25' });

    it('renders a document its own validator accepts (placeholder and secret words neutralized)', () => {
      const doc = valid();
      expect(validateHandoffDocument(doc, cwd)).toEqual([]);
      for (const s of REQUIRED_SECTIONS) expect(doc).toContain(`\n## ${s}\n`);
      expect(doc).toMatch(/^---\nmode: CREATE\nadr_id: ADR-0\.0\.25\nbranch: feature\/login\n/);
      expect(doc).toContain('- `src/login.ts`: written by Write');
      expect(doc).toContain('- src/gone.ts: deleted by apply_patch (not on disk now)');
    });

    const violations: [string, (doc: string) => string, RegExp][] = [
      ['frontmatter missing', (d) => d.replace(/^---\n[\s\S]*?\n---\n/, ''), /frontmatter missing/],
      ['frontmatter not a mapping', (d) => d.replace(/^---\n[\s\S]*?\n---\n/, '---\n- a\n- b\n---\n'), /must be a YAML mapping/],
      ['bad adr_id', (d) => d.replace('adr_id: ADR-0.0.25', 'adr_id: ADR-1.2'), /adr_id must match ADR-X\.Y\.Z/],
      ['bad mode', (d) => d.replace('mode: CREATE', 'mode: create'), /^mode:/],
      ['bad timestamp', (d) => d.replace(/timestamp: .*/, 'timestamp: yesterday'), /timestamp must be ISO 8601/],
      ['bad obpi_id', (d) => d.replace('agent: claude-code', 'agent: claude-code\nobpi_id: OBPI-0.0.25-3'), /obpi_id must match/],
      ['missing required field', (d) => d.replace(/branch: .*\n/, ''), /^branch:/],
      ['extra key', (d) => d.replace('agent: claude-code', 'agent: claude-code\nowner: ana'), /unknown keys: owner/],
      ['placeholder', (d) => d.replace('## Important Context\n', '## Important Context\n\nTBD\n'), /placeholder "TBD"/],
      ['standalone ellipsis', (d) => d.replace('## Important Context\n', '## Important Context\n\n...\n'), /placeholder "\.\.\."/],
      ['secret', (d) => d.replace('## Important Context\n', '## Important Context\n\napi_key=abc123\n'), /secret-like content "api_key="/],
      ['bearer secret', (d) => d.replace('## Important Context\n', '## Important Context\n\nAuthorization: Bearer abc.def\n'), /secret-like content "Bearer/],
      ['missing section', (d) => d.replace('## Decisions Made', '## Decisions'), /missing section "## Decisions Made"/],
      ['evidence path missing', (d) => d.replace('- `src/login.ts`', '- `src/nowhere.ts`'), /evidence path does not exist: src\/nowhere\.ts/],
    ];
    for (const [name, mutate, error] of violations) {
      it(`rejects: ${name}`, () => {
        const errors = validateHandoffDocument(mutate(valid()), cwd);
        expect(errors.length, name).toBeGreaterThan(0);
        expect(errors.some((e) => error.test(e)), `${name}: ${errors.join(' | ')}`).toBe(true);
      });
    }

    it('ignores placeholders inside HTML comments', () => {
      const doc = valid().replace('## Important Context\n', '## Important Context\n\n<!-- TODO: fill in ... -->\n');
      expect(validateHandoffDocument(doc, cwd)).toEqual([]);
    });
  });

  describe('MCP handoff envelope', () => {
    it('validates, and refuses an envelope past its TTL', () => {
      const env = toEnvelope(briefData(cwd), 'codex', NOW, 300);
      expect(HandoffEnvelopeSchema.parse(env)).toEqual(env);
      expect(env).toMatchObject({ session_id: 'claude:abc', source_server: 'baton:claude', target_server: 'baton:codex', ttl_seconds: 300, next_tool_hint: 'restore_session' });
      expect(toEnvelope(briefData(cwd), 'codex', NOW).handoff_id).toBe(env.handoff_id);
      expect(acceptEnvelope(env, new Date(NOW.getTime() + 299_000))).toEqual(env);
      expect(() => acceptEnvelope(env, new Date(NOW.getTime() + 301_000))).toThrow(EnvelopeExpiredError);
      expect(() => acceptEnvelope({ ...env, handoff_id: 'not-a-uuid' }, NOW)).toThrow();
      expect(() => acceptEnvelope({ ...env, ttl_seconds: 0 }, NOW)).toThrow();
    });
  });

  describe('Context Relay files', () => {
    it('writes state.json, appends decisions.md without repeats, and merges todos.json', () => {
      const data = briefData(cwd);
      const first = writeContextRelay(data, cwd);
      expect(first).toMatchObject({ decisionsAppended: 1, todosAdded: 4 });
      const state = JSON.parse(fs.readFileSync(path.join(cwd, 'state.json'), 'utf8'));
      expect(state).toMatchObject({ current_task: 'Add a login form', session_id: 'claude:abc', progress: { blocked: ['Design missing'], next_steps: ['Add logout'] } });
      const decisions1 = fs.readFileSync(path.join(cwd, 'decisions.md'), 'utf8');
      expect(decisions1).toMatch(/^# Architecture Decision Records\n\n## ADR-001: Use JWT\n/);

      data.decisions.push({ text: 'Postgres, not SQLite', source: 'pin', seq: 7, corrects: [] });
      data.state.itemsCompleted.push(item('Add logout'));
      const second = writeContextRelay(data, cwd);
      expect(second).toMatchObject({ decisionsAppended: 1, todosAdded: 0, todosUpdated: 1 });
      const decisions2 = fs.readFileSync(path.join(cwd, 'decisions.md'), 'utf8');
      expect(decisions2.startsWith(decisions1)).toBe(true);
      expect(decisions2).toContain('## ADR-002: Postgres, not SQLite');
      const todos = JSON.parse(fs.readFileSync(path.join(cwd, 'todos.json'), 'utf8'));
      expect(todos.todos.find((t: { title: string }) => t.title === 'Add logout').status).toBe('completed');
      expect(() => writeContextRelay(data, path.join(tmp.dir, 'missing'))).toThrow(/does not exist/);
    });
  });
});
