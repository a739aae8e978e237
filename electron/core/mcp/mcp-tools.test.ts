/**
 * Every tool through the real SDK client over HTTP, against the real core indexing a private copy
 * of the fixture stores (the sessions of every agent whose reader has landed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../../shared/model.js';
import { jsonOf, startMcpHarness, textOf, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { installOpencodePlugin } from '../install/plugins/opencode-plugin.js';
import { mcpEndpoint } from '../install/endpoint.js';
import { expectedSessions } from '../../../testing/fixture-home.js';
import { fixtureAdapters } from '../../../testing/index-support.js';
import { mcpCoreFromBaton } from './from-baton-core.js';
import { listSessions as listSessionsTool, searchAllSessions } from './tools/session-tools.js';

let h: McpHarness;
let client: Client;
beforeAll(async () => {
  h = await startMcpHarness();
  client = await h.connect();
}, 60_000);
afterAll(async () => h.close());

/** Fixture sessions of the agents whose reader has landed (the index holds exactly those). */
const readable = () => {
  const agents = new Set<string>(fixtureAdapters(h.home.env).map((a) => a.agent));
  return { agents: [...agents].sort(), sessions: expectedSessions().filter((e) => agents.has(e.agent)).length };
};

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

interface SessionRow {
  id: string;
  agent: string;
  cwd: string | null;
  updated_at: string | null;
}

describe('list_sessions', () => {
  it('lists every fixture session newest first, and filters by agent and project', async () => {
    const all = jsonOf<{ total: number; sessions: SessionRow[]; index_note?: string }>(await call('list_sessions', { limit: 200 }));
    expect(all.total).toBe(readable().sessions);
    expect(all.index_note).toBeUndefined(); // the index is current
    const times = all.sessions.map((s) => s.updated_at ?? '');
    expect([...times].sort().reverse()).toEqual(times);
    const codex = jsonOf<{ sessions: SessionRow[] }>(await call('list_sessions', { agent: 'codex' }));
    expect(codex.sessions).toHaveLength(5);
    expect(codex.sessions.every((s) => s.agent === 'codex')).toBe(true);
    const scratch = jsonOf<{ sessions: SessionRow[] }>(await call('list_sessions', { project: 'scratch', limit: 2 }));
    expect(scratch.sessions).toHaveLength(2);
    expect(scratch.sessions.every((s) => s.cwd === '/home/ana/scratch')).toBe(true);
  });

  it('says when Baton is still on its first index pass, so a missing session is not taken for none', async () => {
    // The real core's answers, seen as during its first pass (health says the index is not current yet).
    const real = mcpCoreFromBaton(h.core);
    const health = await real.api.health({});
    const firstPass = { ...real, api: { ...real.api, health: async () => ({ ...health, index: { ...health.index, phase: 'indexing' as const, currentAt: null } }) } };
    const listed = jsonOf<{ total: number; index_note?: string }>(await listSessionsTool(firstPass, { limit: 5 }));
    expect(listed.total).toBe(readable().sessions);
    expect(listed.index_note).toBe(
      `Baton is still building its index (${health.index.sessions} sessions so far): sessions and matches it has not reached yet are missing. Call again in a moment for the rest.`,
    );
    const found = jsonOf<{ hits: unknown[]; index_note?: string }>(await searchAllSessions(firstPass, { query: 'coffee' }));
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.index_note).toBe(listed.index_note);
    expect(jsonOf<{ index_note?: string }>(await searchAllSessions(real, { query: 'coffee' })).index_note).toBeUndefined();
  });

  it('rejects a bad argument with an actionable error', async () => {
    const res = await call('list_sessions', { agent: 'vim' });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/agent/);
  });
});

describe('search', () => {
  it('search_all_sessions finds a phrase across agents with highlighted snippets', async () => {
    const res = jsonOf<{ hits: { session: string; snippet: string }[] }>(await call('search_all_sessions', { query: 'todo.txt' }));
    expect(new Set(res.hits.map((h) => h.session.split(':')[0])).size).toBeGreaterThan(1);
    expect(res.hits.some((h) => h.snippet.includes('[['))).toBe(true);
  });

  it('search_session stays within one session (id prefix reference)', async () => {
    const res = await call('search_session', { session: 'codex:01a20157-a468', query: 'todo' });
    expect(res.isError).toBeFalsy();
    const body = jsonOf<{ session: string; hits: { session: string }[] }>(res);
    expect(body.session).toBe('codex:01a20157-a468-7552-b116-47da599ade11');
    expect(body.hits.length).toBeGreaterThan(0);
    expect(body.hits.every((hit) => hit.session === body.session)).toBe(true);
  });

  it('FTS-hostile queries give results or nothing, never a failure', async () => {
    for (const query of ['"', 'NEAR(', '*', 'AND OR NOT', '-', "'", ')(', 'a"b', '^', 'col:umn', '{}', '\u0000x', 'todo* -"git']) {
      const res = await call('search_all_sessions', { query });
      expect(res.isError, query).toBeFalsy();
      expect(Array.isArray(jsonOf<{ hits: unknown[] }>(res).hits), query).toBe(true);
    }
  });
});

describe('session references', () => {
  it('an ambiguous reference lists candidates and says what to do', async () => {
    const res = await call('generate_brief', { session: 'todo.txt' });
    expect(res.isError).toBe(true);
    const text = textOf(res);
    expect(text).toMatch(/more than one session/);
    expect(text).toMatch(new RegExp(`- (${AGENTS.join('|')}):`));
    expect(text).toMatch(/Call again/);
  });

  it('accepts title and session_id as aliases, and reports a missing session', async () => {
    const byTitle = await call('generate_brief', { title: 'Naming ideas for a greeting CLI', session: undefined });
    // Two agents share that title: still a clear, actionable answer either way.
    expect(textOf(byTitle).length).toBeGreaterThan(0);
    const byId = await call('generate_brief', { session_id: 'opencode:ses_dfea733a5ffejl9rG2UkNbLHH7' });
    expect(byId.isError).toBeFalsy();
    const missing = await call('generate_brief', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/list_sessions/);
    const unknown = await call('generate_brief', { session: 'codex:does-not-exist-anywhere' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/list_sessions|search_all_sessions/);
  });
});

describe('handoff cycle', () => {
  it('generate_brief previews the brief without restoring', async () => {
    const res = await call('generate_brief', { session: 'opencode:ses_dfea733a5ffejl9rG2UkNbLHH7', target: 'claude', budget: 2000 });
    expect(res.isError).toBeFalsy();
    expect(textOf(res)).toContain('todo.txt');
    const meta = JSON.parse((res.content[1] as { text: string }).text) as { tokens: number; budget: number; target: string };
    expect(meta).toMatchObject({ target: 'claude', budget: 2000 });
    expect(meta.tokens).toBeLessThanOrEqual(2000);
  });

  let checkpointId = '';
  it('checkpoint_session by agent + cwd picks that agent’s latest session there, idempotently', async () => {
    const args = {
      agent: 'hermes',
      cwd: '/home/ana/scratch/',
      summary: 'Read todo.txt; next is to implement the first item.',
      decisions: ['Keep the list in todo.txt'],
      next_steps: ['Implement item 1'],
      files: ['todo.txt'],
      idempotency_token: 'tok-1',
    };
    const first = await call('checkpoint_session', args);
    expect(first.isError, textOf(first)).toBeFalsy();
    const body = jsonOf<{ checkpoint_id: string; session: string; status: string; git: unknown }>(first);
    const hermesScratch = jsonOf<{ sessions: SessionRow[] }>(await call('list_sessions', { agent: 'hermes', project: '/home/ana/scratch' }));
    expect(body.session).toBe(hermesScratch.sessions[0]!.id);
    expect(body.status).toBe('pending');
    expect(body).toHaveProperty('git');
    const again = jsonOf<{ checkpoint_id: string }>(await call('checkpoint_session', args));
    expect(again.checkpoint_id).toBe(body.checkpoint_id);
    checkpointId = body.checkpoint_id;
  });

  it('checkpoint_session without a session or agent+cwd says what to pass', async () => {
    const res = await call('checkpoint_session', { summary: 'x' });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/agent.*cwd/);
    const nowhere = await call('checkpoint_session', { agent: 'codex', cwd: '/nowhere', summary: 'x' });
    expect(nowhere.isError).toBe(true);
  });

  it('restore_session: drift first, then the brief with confirmed, marking the checkpoint received', async () => {
    const session = jsonOf<{ sessions: SessionRow[] }>(await call('list_sessions', { agent: 'hermes', project: '/home/ana/scratch' })).sessions[0]!.id;
    const step1 = await call('restore_session', { session });
    expect(step1.isError, textOf(step1)).toBeFalsy();
    const packet = jsonOf<{ checkpoint: { checkpoint_id: string; status: string }; next: string }>(step1);
    expect(packet.checkpoint.checkpoint_id).toBe(checkpointId);
    expect(packet.checkpoint.status).toBe('pending');
    expect(step1.content).toHaveLength(1);
    expect(packet.next).toMatch(/confirmed: true/);

    const step2 = await call('restore_session', { session, confirmed: true, target: 'codex' });
    expect(step2.isError, textOf(step2)).toBeFalsy();
    const confirmed = jsonOf<{ checkpoint: { status: string }; brief: { target: string } }>(step2);
    expect(confirmed.checkpoint.status).toBe('received');
    expect(confirmed.brief.target).toBe('codex');
    expect((step2.content[1] as { text: string }).text).toContain('Implement item 1');
  });

  it('complete_handoff marks it completed and health_check reports it', async () => {
    const res = await call('complete_handoff', { checkpoint_id: checkpointId });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(jsonOf<{ status: string }>(res).status).toBe('completed');
    const health = await call('health_check');
    const report = jsonOf<{
      checkpoint_store: string;
      stale_pending_checkpoints: number;
      last_completed_handoff: { at: string } | null;
      index: { sessions: number };
      sources: { agent: string; state: string; lag_seconds: number | null }[];
    }>(health);
    expect(report.checkpoint_store).toBe('ok');
    expect(report.stale_pending_checkpoints).toBe(0);
    expect(report.last_completed_handoff?.at).toBeTruthy();
    expect(report.index.sessions).toBe(readable().sessions);
    expect(report.sources.map((s) => s.agent).sort()).toEqual(readable().agents);
  });
});

describe('/ingest and the OpenCode plugin', () => {
  const payload = {
    agent: 'opencode',
    session_id: 'ses_dfea733a5ffejl9rG2UkNbLHH7',
    updated_at: 1763790000000,
    messages: [{ id: 'msg_1', role: 'user', created_at: 1763789990000 }],
  };
  const push = (body: unknown) =>
    fetch(`${h.server.url}/ingest`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('is idempotent: the same push twice changes nothing the second time', async () => {
    const before = jsonOf<{ total: number }>(await call('list_sessions', { limit: 200 })).total;
    const first = (await (await push(payload)).json()) as { status: string; indexed: boolean; session: string };
    expect(first).toEqual({ status: 'synced', session: 'opencode:ses_dfea733a5ffejl9rG2UkNbLHH7', indexed: true });
    const second = (await (await push(payload)).json()) as { status: string };
    expect(second.status).toBe('unchanged');
    const changed = (await (await push({ ...payload, messages: [...payload.messages, { id: 'msg_2', role: 'assistant' }] })).json()) as { status: string };
    expect(changed.status).toBe('synced');
    expect(jsonOf<{ total: number }>(await call('list_sessions', { limit: 200 })).total).toBe(before);
  });

  it('the installed plugin exports only the plugin, holds no token, and pushes after session.idle', async () => {
    const environment = { env: { XDG_CONFIG_HOME: path.join(h.home.home, '.config') }, platform: 'linux' as const, home: h.home.home };
    const port = Number(new URL(h.server.url).port);
    const tokenFile = path.join(h.home.env.BATON_HOME!, 'token');
    const installed = installOpencodePlugin({ environment, endpoint: { ...mcpEndpoint(port, h.token), tokenFile } });
    expect(installed.changed).toBe(true);
    expect(fs.readFileSync(installed.file, 'utf8')).not.toContain(h.token);
    const mod = (await import(pathToFileURL(installed.file).href)) as Record<string, unknown> & {
      BatonPlugin: ((ctx: { client: unknown }) => Promise<{ event: (e: { event: unknown }) => Promise<void> }>) & {
        helpers: { buildPayload: (client: unknown, id: string) => Promise<unknown> };
      };
    };
    // OpenCode calls every exported value as a plugin: anything but the plugin breaks loading.
    expect(Object.keys(mod)).toEqual(['BatonPlugin']);
    const id = 'ses_dfea74556ffedPhnXzEoopOUt8';
    // Stands in for OpenCode's SDK client: the two reads the plugin makes.
    const client = {
      session: {
        get: async () => ({ data: { id, title: 'Naming ideas for a greeting CLI', directory: '/home/ana/scratch', time: { created: 1, updated: 2 } } }),
        messages: async () => ({ data: [{ info: { id: 'msg_a', role: 'user', time: { created: 1 } }, parts: [] }] }),
      },
    };
    const hooks = await mod.BatonPlugin({ client });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: id } } });
    // The plugin debounces; then the identical push must be a repeat of what it sent.
    await new Promise((r) => setTimeout(r, 1500));
    const repeat = (await (await push(await mod.BatonPlugin.helpers.buildPayload(client, id))).json()) as { status: string };
    expect(repeat.status).toBe('unchanged');
  });
});
