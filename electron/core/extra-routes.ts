/**
 * Routes beyond the UI contract that the local server mounts: the MCP endpoint, /nudge and /sync.
 * Each module contributes its routes here, so Electron main and headless mode serve the same set.
 */
import type { BatonCore } from './baton-core.js';
import type { HttpRoute } from './server/http-server.js';
import { createMcpRoutes } from './mcp/from-baton-core.js';
import { createNudgeRoute } from './handoff/nudge-route.js';
import { createSyncRoute } from './server/sync-route.js';

export function createExtraRoutes(core: BatonCore): HttpRoute[] {
  return [
    ...createMcpRoutes(core),
    createNudgeRoute(async () => {
      await core.syncNow();
    }, core.log),
    createSyncRoute({ progress: () => core.sources.progress(), syncNow: () => core.syncNow() }),
  ];
}
