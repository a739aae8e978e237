/**
 * Test support: a real Baton core over a private copy of the fixture stores, served by the real
 * local HTTP server on 127.0.0.1 (random port), and real MCP SDK clients talking to it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { makeFixtureHome, type FixtureHome } from '../fixture-home.js';
import { currentEnvironment } from '../../electron/core/paths.js';

export interface McpHarness {
  core: BatonCore;
  server: LocalServer;
  home: FixtureHome;
  url: string;
  token: string;
  connect(name?: string): Promise<Client>;
  close(): Promise<void>;
}

/** `prepare`: writes extra sessions into the fixture home before the first index pass. */
export async function startMcpHarness(opts: { start?: boolean; prepare?: (home: FixtureHome) => void } = {}): Promise<McpHarness> {
  const home = makeFixtureHome();
  opts.prepare?.(home);
  const base = currentEnvironment();
  const core = await createBatonCore({ environment: { ...base, env: home.env, home: home.home }, dataDir: home.env.BATON_HOME!, log: () => {} });
  if (opts.start !== false) {
    await core.start();
    await core.syncNow(); // start() may return before the first index pass is done
  }
  const server = await startLocalServer(core, 0);
  const clients: Client[] = [];
  const url = `${server.url}/mcp`;
  return {
    core,
    server,
    home,
    url,
    token: core.tokens.get(),
    async connect(name = 'baton-test') {
      const client = new Client({ name, version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${core.tokens.get()}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => undefined);
      await server.close();
      await core.close();
      home.cleanup();
    },
  };
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export function jsonOf<T = Record<string, unknown>>(result: unknown): T {
  const first = (result as CallToolResult).content?.[0];
  if (!first || first.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text) as T;
}
