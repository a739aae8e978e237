/**
 * Adapts the composition root's BatonCore to what the MCP layer needs, and builds both routes.
 * The integrator adds `createMcpRoutes(core)` to the HTTP server's `routes`.
 */
import type { AgentId } from '../../../shared/model.js';
import type { BatonCore } from '../service.js';
import type { HttpRoute } from '../server/http-server.js';
import { BATON_VERSION } from '../version.js';
import type { McpCore } from './mcp-core.js';
import { createMcpRoute } from './mcp-route.js';
import { createIngestRoute } from './ingest-route.js';

/** The core may expose `syncNow(agent)` (index re-read of one agent's store). */
type CoreWithSync = BatonCore & { syncNow?: (agent: AgentId) => Promise<unknown> };

export function mcpCoreFromBaton(core: CoreWithSync): McpCore {
  let warned = false;
  return {
    api: core.api,
    version: BATON_VERSION,
    log: (line) => core.log(line),
    async syncNow(agent) {
      if (typeof core.syncNow === 'function') {
        await core.syncNow(agent);
        return;
      }
      if (!warned) core.log('mcp: this core cannot re-read a store on demand; tools use the index as the watcher left it.');
      warned = true;
    },
  };
}

export function createMcpRoutes(core: BatonCore): HttpRoute[] {
  const mcpCore = mcpCoreFromBaton(core);
  return [createMcpRoute(mcpCore), createIngestRoute(mcpCore)];
}
