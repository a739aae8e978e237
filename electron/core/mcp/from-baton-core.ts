/**
 * Adapts the composition root's BatonCore to what the MCP layer needs, and builds both routes.
 * The integrator adds `createMcpRoutes(core)` to the HTTP server's `routes`.
 */
import type { AgentId } from '../../../shared/model.js';
import type { ApiHandlers } from '../../../shared/contract.js';
import type { HttpRoute } from '../server/http-server.js';
import { BATON_VERSION } from '../version.js';
import type { McpCore } from './mcp-core.js';
import { createMcpRoute } from './mcp-route.js';
import { createIngestRoute } from './ingest-route.js';

/** The part of the composed core (baton-core.ts) the MCP layer uses, declared here so mcp/ imports no composition root. */
export interface McpHost {
  readonly api: ApiHandlers;
  log(line: string): void;
  /** Its result (what the pass read) is not used here. */
  syncNow(agent?: AgentId): Promise<unknown>;
}

export function mcpCoreFromBaton(core: McpHost): McpCore {
  return {
    api: core.api,
    version: BATON_VERSION,
    log: (line) => core.log(line),
    syncNow: async (agent: AgentId) => {
      await core.syncNow(agent);
    },
  };
}

export function createMcpRoutes(core: McpHost): HttpRoute[] {
  const mcpCore = mcpCoreFromBaton(core);
  return [createMcpRoute(mcpCore), createIngestRoute(mcpCore)];
}
