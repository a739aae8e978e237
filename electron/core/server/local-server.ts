/**
 * Starts the local server for a core: the one used by `baton serve` and by the Electron app (for
 * MCP and /ingest). Returns the running server and a one-time login URL for the browser UI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { BatonCore } from '../service.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';
import { createExtraRoutes } from './extra-routes.js';
import { removeServerMarker, writeServerMarker } from '../handoff/server-marker.js';

export interface LocalServer extends RunningHttpServer {
  /** Opens the UI once and sets the auth cookie; a fresh code each time it is asked for. */
  newLoginUrl(): string;
}

/** The built renderer, from the sources (renderer/dist) or next to the compiled main (dist/). */
export function rendererDistDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.BATON_RENDERER_DIR,
    path.resolve(here, '../../../renderer/dist'),
    path.resolve(here, '../../../../renderer/dist'),
  ];
  for (const candidate of candidates) {
    if (candidate && fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

export async function startLocalServer(core: BatonCore, port = core.settings.get().port): Promise<LocalServer> {
  const loginCodes = new Set<string>();
  const server = await startHttpServer({
    port,
    tokens: core.tokens,
    api: core.api,
    health: () => core.health(),
    subscribe: (listener) => core.events.subscribe(listener),
    routes: createExtraRoutes(core),
    staticDir: rendererDistDir(),
    loginCodes,
    log: core.log,
  });
  // Agents' Stop hooks find a running Baton through this file (see handoff/nudge.ts).
  try {
    writeServerMarker(core.dataDir, { port: server.port, pid: process.pid });
  } catch (err) {
    core.log(`could not write ${core.dataDir}/server.json: ${(err as Error).message}`);
  }
  return {
    ...server,
    async close() {
      removeServerMarker(core.dataDir, process.pid);
      await server.close();
    },
    newLoginUrl() {
      const code = randomBytes(18).toString('base64url');
      loginCodes.add(code);
      return `${server.url}/login?code=${code}`;
    },
  };
}
