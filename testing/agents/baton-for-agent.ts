/**
 * A real Baton (core + local HTTP server on 127.0.0.1, random port) reading one agent's throw-away
 * HOME, and the real `baton` CLI run against the same data dir. The core indexes the stores once at
 * start and does NOT watch them, so a later session appears in its index only when something (an
 * /ingest push, a hook) makes it re-read a store.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { pathWithProjectNode } from './run-agent.js';

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BatonForAgent {
  core: BatonCore;
  server: LocalServer;
  dataDir: string;
  /** Runs `baton <args>` with the agent's HOME (or `env` over it) and this Baton's data dir. */
  cli(args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }>;
  close(): Promise<void>;
}

export async function startBatonForAgent(home: string, dataDir: string, agentEnv: NodeJS.ProcessEnv): Promise<BatonForAgent> {
  fs.mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...agentEnv, HOME: home, BATON_HOME: dataDir };
  const core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir, ingest: 'inline', watch: false, log: () => {} });
  await core.start();
  await core.whenCurrent();
  const server = await startLocalServer(core, 0);
  return {
    core,
    server,
    dataDir,
    async cli(args, extra = {}) {
      const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(repoRoot, 'bin', 'baton.mjs'), ...args], {
        cwd: repoRoot,
        env: { ...env, ...extra, PATH: pathWithProjectNode(env.PATH) },
        timeout: 120_000,
      });
      return { stdout, stderr };
    },
    async close() {
      await server.close();
      await core.close();
    },
  };
}
