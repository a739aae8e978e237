/**
 * Adapts the composition root's BatonCore to what the MCP layer needs, and builds both routes.
 * The integrator adds `createMcpRoutes(core)` to the HTTP server's `routes`.
 */
import type { AgentId } from '../../../shared/model.js';
import type { BatonCore } from '../baton-core.js';
import type { HttpRoute } from '../server/http-server.js';
import { BATON_VERSION } from '../version.js';
import type { McpCore } from './mcp-core.js';
import { createMcpRoute } from './mcp-route.js';
import { createIngestRoute } from './ingest-route.js';

export function mcpCoreFromBaton(core: BatonCore): McpCore {
  return {
    api: core.api,
    version: BATON_VERSION,
    log: (line) => core.log(line),
    syncNow: (agent: AgentId) => core.syncNow(agent),
  };
}

export function createMcpRoutes(core: BatonCore): HttpRoute[] {
  const mcpCore = mcpCoreFromBaton(core);
  return [createMcpRoute(mcpCore), createIngestRoute(mcpCore)];
}
