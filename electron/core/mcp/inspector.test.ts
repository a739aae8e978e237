/**
 * `@modelcontextprotocol/inspector --cli` (a second, independent MCP client) lists Baton's tools
 * from the real running endpoint. Inspector 0.15's CLI cannot set headers, so it goes through the
 * token-adding proxy; without it, the same command is refused (401).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from '../../../testing/mcp/mcp-harness.js';
import { startAuthProxy, type AuthProxy } from '../../../testing/mcp/auth-proxy.js';
import { MCP_TOOL_NAMES } from './mcp-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let h: McpHarness;
let proxy: AuthProxy;
beforeAll(async () => {
  h = await startMcpHarness({ start: false });
  proxy = await startAuthProxy(h.server.url, h.token);
});
afterAll(async () => {
  await proxy.close();
  await h.close();
});

function inspector(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['--no-install', 'mcp-inspector', '--cli', url, '--transport', 'http', '--method', 'tools/list'],
      { cwd: repoRoot, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('lists all nine tools with input schemas', { timeout: 120_000 }, async () => {
  const result = await inspector(`${proxy.url}/mcp`);
  expect(result.code, result.stderr.slice(-2000)).toBe(0);
  const listed = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { tools: { name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }[] };
  expect(listed.tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
  const restore = listed.tools.find((t) => t.name === 'restore_session')!;
  expect(Object.keys(restore.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['session', 'session_id', 'title', 'confirmed', 'target', 'budget']));
  for (const tool of listed.tools) expect(tool.description.length).toBeGreaterThan(40);
});

it('is refused without the token', { timeout: 120_000 }, async () => {
  const result = await inspector(h.url);
  expect(result.code).not.toBe(0);
  expect(`${result.stdout}${result.stderr}`).toMatch(/401|Unauthorized|token/i);
});
