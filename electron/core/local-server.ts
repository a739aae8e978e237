/**
 * Starts the local server for a core: the one used by `baton serve` and by the Electron app (for
 * MCP and /ingest). Returns the running server and one-time login URLs for the browser UI (also
 * handed out on POST /login-link, for `baton login-link`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BatonCore } from './baton-core.js';
import { startHttpServer, type RunningHttpServer } from './server/http-server.js';
import { createExtraRoutes } from './extra-routes.js';
import { removeServerFile, writeServerFile } from './server/server-file.js';
import { BATON_VERSION } from './version.js';
import { loginLinkRoute } from './server/login-link.js';
import { assetPath } from './asset-path.js';
import { uiSessionStore } from './auth/ui-session.js';

export interface LocalServer extends RunningHttpServer {
  /** Opens the UI once and sets the auth cookie; a fresh code each time it is asked for. */
  newLoginUrl(): string;
}

/** The built renderer, from the sources (renderer/dist) or next to the compiled main (dist/). */
export function rendererDistDir(): string | null {
  const candidates = [process.env.BATON_RENDERER_DIR, assetPath('renderer', 'dist')];
  for (const candidate of candidates) {
    if (candidate && fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

export async function startLocalServer(core: BatonCore, port = core.settings.get().port): Promise<LocalServer> {
  const loginCodes = new Set<string>();
  const newLoginUrl = (): string => {
    const code = randomBytes(18).toString('base64url');
    loginCodes.add(code);
    return `${server.url}/login?code=${code}`;
  };
  const server: RunningHttpServer = await startHttpServer({
    port,
    tokens: core.tokens,
    uiSession: uiSessionStore(core.dataDir),
    api: core.api,
    health: () => core.health(),
    subscribe: (listener) => core.events.subscribe(listener),
    routes: [...createExtraRoutes(core), loginLinkRoute(() => newLoginUrl())],
    staticDir: rendererDistDir(),
    loginCodes,
    log: core.log,
  });
  // Tells one-shot CLI commands and agents' Stop hooks where Baton listens (see server-file.ts); best effort.
  try {
    writeServerFile(core.dataDir, { pid: process.pid, port: server.port, url: server.url, version: BATON_VERSION, startedAt: new Date().toISOString() });
  } catch (err) {
    core.log(`[server warn] could not write server.json: ${(err as Error).message}`);
  }
  return {
    ...server,
    async close() {
      removeServerFile(core.dataDir);
      await server.close();
    },
    newLoginUrl,
  };
}
