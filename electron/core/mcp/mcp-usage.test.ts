// usage_summary through the real SDK client over HTTP, against the real core over the fixture stores.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UsageSummary } from '../../../shared/usage.js';
import { jsonOf, startMcpHarness, textOf, type McpHarness } from '../../../testing/mcp/mcp-harness.js';

let h: McpHarness;
let client: Client;
beforeAll(async () => {
  h = await startMcpHarness();
  client = await h.connect();
}, 60_000);
afterAll(async () => h.close());

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

it('usage_summary reports each agent, and one session’s tokens, cost and context fill', async () => {
  const all = jsonOf<UsageSummary>(await call('usage_summary'));
  expect(all.agents.map((a) => a.agent)).toEqual(expect.arrayContaining(['claude', 'codex', 'opencode', 'hermes']));
  const codexOnly = jsonOf<UsageSummary>(await call('usage_summary', { agent: 'codex' }));
  expect(codexOnly.agents.map((a) => a.agent)).toEqual(['codex']);
  const one = jsonOf<UsageSummary>(await call('usage_summary', { session: 'codex:01a20157-94de' }));
  expect(one.session).toMatchObject({ session: 'codex:01a20157-94de-71d1-8e8d-ab66ac63d990', inputTokens: 38_673, outputTokens: 1_068, contextWindow: 258_400 }); // as Codex recorded it
  expect(one.session?.costUSD).toBeCloseTo(0.225405, 6);
  const unknown = await call('usage_summary', { session: 'no such session anywhere' });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toMatch(/list_sessions|No session/i);
});
