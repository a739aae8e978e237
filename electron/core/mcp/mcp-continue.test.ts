// continue_session through the real SDK client over HTTP, against the real core over the fixture
// stores and the real Claude Code writer (the pinned CLI on PATH, as the agent tests install it).
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, startMcpHarness, textOf, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { AGENT_CLIS, agentCacheDir } from '../../../testing/agents/agent-clis.js';

let h: McpHarness;
let client: Client;
let home = '';
let project = '';
beforeAll(async () => {
  h = await startMcpHarness({
    prepare: (fixture) => {
      home = fixture.home;
      project = path.join(fixture.home, 'work', 'demo-app');
      fs.mkdirSync(project, { recursive: true });
      const bin = path.join(fixture.home, 'bin');
      fs.mkdirSync(bin);
      fs.symlinkSync(path.join(agentCacheDir(), `claude@${AGENT_CLIS.claude.version}`, 'node_modules', '.bin', 'claude'), path.join(bin, 'claude'));
      fixture.env.PATH = [path.dirname(process.execPath), bin, process.env.PATH].join(path.delimiter);
    },
  });
  client = await h.connect();
}, 60_000);
afterAll(async () => h.close());

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

it('continue_session writes the session into Claude Code’s store and returns its id and resume argv', async () => {
  const result = jsonOf<{ agent: string; session: string; resume: string[]; continued_from: string; reused: boolean }>(
    await call('continue_session', { session: 'claude:1acd9001', agent: 'claude', cwd: project }),
  );
  expect(result).toMatchObject({ agent: 'claude', continued_from: 'claude:1acd9001-6177-4eae-b40d-71af70d0b76c', reused: false });
  expect(result.resume).toEqual(['claude', '--resume', result.session]);
  const file = path.join(home, '.claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'), `${result.session}.jsonl`);
  expect(fs.readFileSync(file, 'utf8')).toContain('Continued from Claude Code');
  const again = jsonOf<{ session: string; reused: boolean }>(await call('continue_session', { session: 'claude:1acd9001', agent: 'claude', cwd: project }));
  expect(again).toEqual(expect.objectContaining({ session: result.session, reused: true }));
});

it('continue_session says what is wrong with bad input', async () => {
  const missing = await call('continue_session', { session: 'claude:1acd9001', agent: 'claude', cwd: path.join(project, 'nope') });
  expect(missing.isError).toBe(true);
  expect(textOf(missing)).toMatch(/does not exist/);
  const unknown = await call('continue_session', { session: 'no such session anywhere', agent: 'claude', cwd: project });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toMatch(/list_sessions|No session/i);
});
