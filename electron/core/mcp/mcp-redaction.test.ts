/**
 * No secret leaves through MCP: every tool's result and error, read by a real MCP client over the
 * real local server, over sessions whose titles, prompts, bodies and tool output hold a GitHub
 * token, an AWS key pair, an OpenAI key and a database password. Search still finds them by a word
 * beside a secret (the index keeps the raw text) and shows the masked form; no flag unmasks.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startMcpHarness, textOf, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { leakedSecrets, SECRET_SESSION_IDS, SECRETS, writeSecretSessions } from '../../../testing/secret-sessions.js';

let h: McpHarness;
let client: Client;
const [first, second] = SECRET_SESSION_IDS.map((id) => `claude:${id}`) as [string, string];

beforeAll(async () => {
  h = await startMcpHarness({ prepare: (home) => writeSecretSessions(home.home) });
  client = await h.connect();
  // Even with brief redaction switched off in settings, an agent gets nothing unmasked.
  h.core.settings.update({ redact: false });
}, 60_000);
afterAll(async () => h.close());

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true };
}

function expectNoSecret(text: string): void {
  expect(leakedSecrets(text)).toEqual([]);
}

describe('MCP tool results and errors carry no secret', () => {
  it('list_sessions shows the sessions with their titles masked', async () => {
    const { text } = await call('list_sessions', { project: 'vault-app' });
    const ids = jsonOf<{ sessions: { id: string; title: string }[] }>({ content: [{ type: 'text', text }] }).sessions.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([first, second]));
    expect(text).toContain('[REDACTED:github_token]');
    expectNoSecret(text);
  });

  it('search_all_sessions finds a session by a word next to a secret, with the snippet masked', async () => {
    const { text } = await call('search_all_sessions', { query: 'quokkarelay' });
    const hits = JSON.parse(text) as { hits: { session: string; snippet: string }[] };
    expect(hits.hits.map((x) => x.session)).toContain(first);
    expect(hits.hits.some((x) => x.snippet.includes('[REDACTED:') && x.snippet.includes('[[quokkarelay]]'))).toBe(true);
    expectNoSecret(text);
  });

  it('a query made of the secret, its name or half of it finds the session but never echoes the secret', async () => {
    for (const query of [SECRETS.github, 'AWS_SECRET_ACCESS_KEY', 'ghp', SECRETS.openai.slice('sk-proj-'.length), 'marmosetbucket']) {
      const { text } = await call('search_all_sessions', { query });
      const hits = (JSON.parse(text) as { hits: { session: string; snippet: string }[] }).hits;
      expect(hits.length, query).toBeGreaterThan(0);
      for (const hit of hits) expectNoSecret(hit.snippet);
      // The echoed query is the agent's own words; anything else in the result is masked.
      expectNoSecret(text.split(JSON.stringify(query)).join(''));
      if (query === SECRETS.github) expectNoSecret(text);
    }
  });

  it('search_session, usage_summary, generate_brief and restore_session are masked', async () => {
    const results = await Promise.all([
      call('search_session', { session: first, query: 'marmosetbucket' }),
      call('usage_summary', { session: first }),
      call('generate_brief', { session: first }),
      call('restore_session', { session: first }),
    ]);
    for (const r of results) {
      expect(r.isError, r.text).toBe(false);
      expectNoSecret(r.text);
    }
    expect(results[2]!.text).toContain('[REDACTED:');
  });

  it('a checkpoint whose summary holds a secret comes back masked in restore_session', async () => {
    const saved = await call('checkpoint_session', { session: first, summary: `Paused; the deploy token is ${SECRETS.github}`, decisions: [`use ${SECRETS.openai}`] });
    expect(saved.isError, saved.text).toBe(false);
    expectNoSecret(saved.text);
    const restored = await call('restore_session', { session: first, confirmed: true });
    expect(restored.text).toContain('Paused; the deploy token is [REDACTED:github_token]');
    expectNoSecret(restored.text);
  });

  it('the "ambiguous session" error lists the candidates with their titles masked', async () => {
    const { text, isError } = await call('generate_brief', { session: 'zebrafinch' });
    expect(isError).toBe(true);
    expect(text).toContain(first);
    expect(text).toContain(second);
    expectNoSecret(text);
  });

  it('an agent cannot ask for the secrets: no tool takes a flag for it, and unknown arguments change nothing', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('redact');
    const { text } = await call('generate_brief', { session: first, redact: false, reveal: true } as Record<string, unknown>);
    expectNoSecret(text);
  });
});
