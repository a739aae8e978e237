/**
 * The `installMcp` contract call, for the composition root: `installMcp: (input) => installMcpForCore(core, input)`.
 */
import type { AgentId } from '../../../../shared/model.js';
import type { Environment } from '../../paths.js';
import path from 'node:path';
import { readServerFile } from '../../server/server-file.js';
import { mcpEndpoint } from '../endpoint.js';
import type { McpInstallOutcome } from '../install-outcome.js';
import { installMcp } from './mcp-installer.js';

export interface InstallCoreView {
  environment: Environment;
  dataDir: string;
  settings: { get(): { port: number } };
  tokens: { get(): string };
}

export async function installMcpForCore(core: InstallCoreView, input: { agent: AgentId | 'all'; dryRun: boolean }): Promise<McpInstallOutcome[]> {
  // The port this Baton actually serves on (it may differ from the setting), else the setting.
  const port = readServerFile(core.dataDir)?.port ?? core.settings.get().port;
  const endpoint = mcpEndpoint(port, core.tokens.get(), undefined, path.join(core.dataDir, 'token'));
  return installMcp({ agent: input.agent, endpoint, environment: core.environment, dataDir: core.dataDir, dryRun: input.dryRun });
}
