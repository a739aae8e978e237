/**
 * The core's implementation of the API contract: one function per call, each delegating to the
 * service that owns the work. Inputs arrive validated (see shared/contract.ts).
 */
import fs from 'node:fs';
import { ApiError, type ApiHandlers } from '../../shared/contract.js';
import type { BatonCore } from './service.js';
import { hostProbe, openInAgent as openAgentInTerminal } from './terminal/open-in-agent.js';

function notYet(method: string): () => Promise<never> {
  return () => Promise.reject(new ApiError('internal', `${method} is not available in this build yet.`));
}

export function createApiHandlers(core: BatonCore): ApiHandlers {
  const settingsView = () => ({
    settings: core.settings.get(),
    detected: core.detectedRoots(),
    warning: core.settings.warning,
    dataDir: core.dataDir,
  });
  const mcpInfo = () => {
    const port = core.settings.get().port;
    return { url: `http://127.0.0.1:${port}/mcp`, port, token: core.tokens.get() };
  };

  return {
    health: async () => core.health(),
    indexProgress: async () => ({
      phase: 'idle',
      filesDone: 0,
      filesTotal: 0,
      bytesDone: 0,
      bytesTotal: 0,
      currentAt: null,
      error: null,
    }),
    sourceStatus: async () => [],
    getSettings: async () => settingsView(),
    updateSettings: async (patch) => {
      core.settings.update(patch);
      return settingsView();
    },
    checkPath: async ({ path }) => {
      const exists = fs.existsSync(path);
      let readable = false;
      let error: string | null = exists ? null : 'Path does not exist.';
      if (exists) {
        try {
          fs.accessSync(path, fs.constants.R_OK);
          readable = true;
        } catch (err) {
          error = `Not readable: ${(err as Error).message}`;
        }
      }
      return { path, exists, readable, sessions: 0, error };
    },
    listSessions: notYet('listSessions'),
    getSession: notYet('getSession'),
    getMessages: notYet('getMessages'),
    search: notYet('search'),
    generateBrief: notYet('generateBrief'),
    createCheckpoint: notYet('createCheckpoint'),
    listCheckpoints: notYet('listCheckpoints'),
    restore: notYet('restore'),
    completeHandoff: notYet('completeHandoff'),
    handoffStatus: notYet('handoffStatus'),
    pinDecision: notYet('pinDecision'),
    mcpInfo: async () => mcpInfo(),
    regenerateToken: async () => {
      core.tokens.regenerate();
      return mcpInfo();
    },
    installMcp: notYet('installMcp'),
    openInAgent: (input) =>
      openAgentInTerminal(
        {
          getSession: (i) => core.api.getSession(i),
          generateBrief: (i) => core.api.generateBrief(i),
          probe: hostProbe(core.environment.platform, core.environment.env, core.environment.home),
        },
        input,
      ),
    desktopStatus: async () => core.desktop.get(),
  };
}
