/**
 * The `installMcp` contract call, for the composition root: `installMcp: (input) => installMcpForCore(core, input)`.
 */
import type { AgentId } from '../../../../shared/model.js';
import type { Environment } from '../../paths.js';
import { mcpEndpoint } from './endpoint.js';
import { installMcp, type McpInstallOutcome } from './installer.js';

export interface InstallCoreView {
  environment: Environment;
  settings: { get(): { port: number } };
  tokens: { get(): string };
}

export async function installMcpForCore(core: InstallCoreView, input: { agent: AgentId | 'all'; dryRun: boolean }): Promise<McpInstallOutcome[]> {
  const endpoint = mcpEndpoint(core.settings.get().port, core.tokens.get());
  return installMcp({ agent: input.agent, endpoint, environment: core.environment, dryRun: input.dryRun });
}
