/**
 * A budget holds after a huge checkpoint: real core over the fixture stores, real baton.db, real
 * HTTP server and MCP SDK client. 0.9 MB of decisions arrive through checkpoint_session; every
 * brief format at budget 500 stays within 500 tokens (same tokenizer), keeps the newest and the
 * most restated decisions and says how many it left out; restore_session is bounded; twenty
 * concurrent briefs each tokenize O(budget) characters while /health keeps answering.
 */
import http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startMcpHarness, textOf, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { countTokens, tokenizedChars } from './tokens.js';
import { DelimitRecordSchema } from './formats/delimit.js';
import { HandoffEnvelopeSchema } from './formats/envelope.js';
import { validateSectionsPresent } from './formats/govzero.js';
import { BRIEF_TARGETS } from '../../../shared/settings.js';
import { parseApiInput } from '../../../shared/contract.js';
import { MAX_CHECKPOINT_CHARS } from '../userdata/checkpoint-limits.js';

const BUDGET = 500;
const CHECKPOINTS = 5;
const PER_CHECKPOINT = 200;
/** Stated in every checkpoint: the most cited decision. */
const RESTATED = 'Restated decision: keep the public API stable';
/** ~900 characters each: 5 × 200 of them make 0.9 MB. */
const decision = (cp: number, i: number) => `Decision ${cp}-${i}: ${'use the existing queue and never block the caller '.repeat(18)}`;

let h: McpHarness;
let client: Client;
let session: string;

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

function health(): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(`${h.server.url}/health`, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  h = await startMcpHarness();
  client = await h.connect();
  const sessions = jsonOf<{ sessions: { id: string; cwd: string | null }[] }>(await call('list_sessions', { limit: 50 })).sessions;
  session = sessions.find((s) => s.cwd)!.id;
  let total = 0;
  for (let cp = 0; cp < CHECKPOINTS; cp++) {
    const decisions = [...Array.from({ length: PER_CHECKPOINT - 1 }, (_, i) => decision(cp, i)), RESTATED];
    total += decisions.reduce((n, d) => n + d.length, 0);
    const result = await call('checkpoint_session', { session, summary: `Checkpoint ${cp}`, decisions, next_steps: [`Step after checkpoint ${cp}`] });
    expect(result.isError, textOf(result)).toBeFalsy();
  }
  expect(total).toBeGreaterThan(900_000);
}, 120_000);
afterAll(async () => h.close());

describe('a budget after a 0.9 MB checkpoint history', () => {
  it('holds for the Markdown brief, keeping the newest and the most restated decisions and counting the rest', async () => {
    const result = await call('generate_brief', { session, budget: BUDGET });
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = (result.content[0] as { text: string }).text;
    expect(countTokens(text)).toBeLessThanOrEqual(BUDGET);
    expect(text).toContain(RESTATED);
    expect(text).toContain(`Decision ${CHECKPOINTS - 1}-${PER_CHECKPOINT - 2}:`); // the newest
    expect(text).not.toContain('Decision 0-0:'); // the oldest goes first
    const more = /… ([\d,]+) more decisions not shown/.exec(text);
    expect(more, text).not.toBeNull();
    const shown = (text.match(/^- (?:Decision \d+-\d+|Restated decision)/gm) ?? []).length;
    // Every distinct decision is either shown or counted.
    expect(shown + Number(more![1]!.replace(/,/g, ''))).toBe(CHECKPOINTS * (PER_CHECKPOINT - 1) + 1);
  });

  it('holds for every target rendering', async () => {
    for (const target of BRIEF_TARGETS) {
      const result = await call('generate_brief', { session, budget: BUDGET, target });
      const text = (result.content[0] as { text: string }).text;
      expect(countTokens(text), target).toBeLessThanOrEqual(BUDGET);
      expect(text, target).toMatch(/more decisions not shown/);
    }
  });

  it('holds for delimit, govzero and envelope, each still valid', async () => {
    for (const format of ['delimit', 'govzero', 'envelope'] as const) {
      const result = await call('generate_brief', { session, budget: BUDGET, format });
      expect(result.isError, textOf(result)).toBeFalsy();
      const text = (result.content[0] as { text: string }).text;
      expect(countTokens(text), format).toBeLessThanOrEqual(BUDGET);
      if (format === 'delimit') {
        const record = DelimitRecordSchema.parse(JSON.parse(text));
        expect(record.key_decisions.at(-1)).toMatch(/more decisions not shown/);
        expect(record.key_decisions.join('\n')).toContain(RESTATED);
      } else if (format === 'envelope') {
        const env = HandoffEnvelopeSchema.parse(JSON.parse(text));
        expect((env.accumulated_context.not_shown as Record<string, number>).decisions).toBeGreaterThan(900);
      } else {
        expect(validateSectionsPresent(text.replace(/^---[\s\S]*?\n---\n/, ''))).toEqual([]);
        expect(text).toMatch(/more decisions not shown/);
      }
    }
  });

  it('bounds restore_session: the checkpoint view and the brief', async () => {
    const dry = await call('restore_session', { session });
    expect(textOf(dry).length).toBeLessThan(30_000);
    const result = await call('restore_session', { session, confirmed: true, budget: BUDGET });
    expect(result.isError, textOf(result)).toBeFalsy();
    const packet = jsonOf<{ checkpoint: { decisions: string[] }; brief: { tokens: number } }>(result);
    expect(packet.checkpoint.decisions.at(-1)).toMatch(/^… [\d,]+ more decisions not shown$/);
    expect(packet.brief.tokens).toBeLessThanOrEqual(BUDGET);
    const brief = (result.content[1] as { text: string }).text;
    expect(countTokens(brief)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(result).length).toBeLessThan(40_000);
  });

  it('bounds the HTTP API restore (the UI) and the handoff result as MCP bounds restore_session', async () => {
    const res = await fetch(`${h.server.url}/api/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session, confirmed: true, budget: BUDGET }),
    });
    const body = await res.text();
    expect(res.status, body.slice(0, 300)).toBe(200);
    // Before: the whole stored checkpoint came back (1.2 MB for budget 500).
    expect(body.length).toBeLessThan(40_000);
    const restored = JSON.parse(body) as { checkpoint: { decisions: string[] }; brief: { tokens: number } };
    expect(restored.checkpoint.decisions.at(-1)).toMatch(/^… [\d,]+ more decisions not shown$/);
    expect(restored.brief.tokens).toBeLessThanOrEqual(BUDGET);
    // The stored checkpoint keeps every decision: only the view is cut.
    expect(h.core.userData.latestCheckpoint(session)!.decisions).toHaveLength(PER_CHECKPOINT);
  });

  it('costs O(budget) per brief: twenty concurrent briefs tokenize a bounded amount while /health answers', async () => {
    const before = tokenizedChars();
    const briefs = Array.from({ length: 20 }, () => call('generate_brief', { session, budget: BUDGET }));
    const healthy: number[] = [];
    // /health between the briefs: each answers (no timing asserted; the bound below is the proof).
    for (let i = 0; i < 5; i++) healthy.push(await health());
    const results = await Promise.all(briefs);
    healthy.push(await health());
    expect(healthy.every((s) => s === 200)).toBe(true);
    for (const r of results) expect(countTokens((r.content[0] as { text: string }).text)).toBeLessThanOrEqual(BUDGET);
    const perBrief = (tokenizedChars() - before) / results.length;
    // Before: every brief tokenized the whole 0.9 MB of decisions (often more than once).
    expect(perBrief).toBeLessThan(BUDGET * 100);
  }, 120_000);

  it('refuses a checkpoint over the size limit with the reason (CLI and in-process doors), and keeps what was accepted', async () => {
    // Over HTTP (MCP, API) the 1 MiB body limit comes first; in-process callers (the CLI) meet this one.
    const huge = Array.from({ length: 200 }, (_, i) => `${i} ${'x '.repeat(1995)}`);
    const request = parseApiInput('createCheckpoint', { session, summary: 'too big', decisions: huge, nextSteps: huge, blockers: huge });
    await expect(h.core.api.createCheckpoint(request)).rejects.toThrow(`at most ${MAX_CHECKPOINT_CHARS.toLocaleString('en-US')} are accepted`);
    const brief = await call('generate_brief', { session, budget: BUDGET });
    expect((brief.content[0] as { text: string }).text).toContain(RESTATED);
  });
});
