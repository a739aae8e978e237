/**
 * This machine's source adapters for the agents' store settings: one per enabled agent, reading
 * the path the user set in settings when there is one, else the agent's default store roots for
 * this environment (plus, on Windows, the stores inside enabled WSL distros). Other machines'
 * stores are ingest's to add (ingest/registry.ts).
 */
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { defaultStoreRoots, type Environment } from '../paths.js';
import { wslStoreRoots } from '../wsl/wsl-paths.js';
import { createClaudeAdapter } from './claude/claude-adapter.js';
import { createClineAdapter } from './cline/cline-adapter.js';
import { createCodexAdapter } from './codex/codex-adapter.js';
import { createDroidAdapter } from './droid/droid-adapter.js';
import { createGeminiAdapter } from './gemini/gemini-adapter.js';
import { createHermesAdapter } from './hermes/index.js';
import { createLettaAdapter } from './letta/letta-adapter.js';
import { createOpenCodeAdapter } from './opencode/index.js';
import { createPiAdapter } from './pi/pi-adapter.js';
import { createQwenAdapter } from './qwen/qwen-adapter.js';
import { createCopilotAdapter } from './copilot/copilot-adapter.js';
import { createContinueAdapter } from './continue-cli/continue-adapter.js';
import type { SourceAdapter } from './types.js';

export interface AgentSourceConfig {
  enabled: boolean;
  /** Overrides the default store roots (for OpenCode: a data dir or an opencode db file). */
  path: string | null;
}

export interface LocalSourcesConfig {
  agents: Record<AgentId, AgentSourceConfig>;
  /** Windows: WSL distros whose agent stores are read as local roots (enabled ones only). */
  wslDistros?: { distro: string; home: string; enabled: boolean }[];
}

// Every agent of the shared list has a reader: a new agent in AGENTS does not compile without one.
const FACTORIES: Record<AgentId, (roots: string[]) => SourceAdapter> = {
  claude: (roots) => createClaudeAdapter(roots),
  codex: (roots) => createCodexAdapter(roots),
  opencode: (roots) => createOpenCodeAdapter(roots),
  hermes: (roots) => createHermesAdapter(roots),
  gemini: (roots) => createGeminiAdapter(roots),
  pi: (roots) => createPiAdapter(roots),
  qwen: (roots) => createQwenAdapter(roots),
  cline: (roots) => createClineAdapter(roots),
  kilo: (roots) => createOpenCodeAdapter(roots, {}, 'kilo'),
  copilot: (roots) => createCopilotAdapter(roots),
  continue: (roots) => createContinueAdapter(roots),
  droid: (roots) => createDroidAdapter(roots),
  letta: (roots) => createLettaAdapter(roots),
};

export function storeRootsFor(
  agent: AgentId,
  config: AgentSourceConfig,
  environment: Environment,
  wslDistros: LocalSourcesConfig['wslDistros'] = [],
): string[] {
  if (config.path) return [config.path];
  // On Windows, agents run inside WSL keep their stores in the distro's Linux home.
  const wsl = environment.platform === 'win32' ? wslDistros.filter((d) => d.enabled).flatMap((d) => wslStoreRoots(agent, d.distro, d.home)) : [];
  return [...defaultStoreRoots(agent, environment), ...wsl];
}

/** One agent's adapter over the given store roots. */
export function createAgentAdapter(agent: AgentId, roots: string[]): SourceAdapter {
  return FACTORIES[agent](roots);
}

export function createLocalAdapters(config: LocalSourcesConfig, environment: Environment): SourceAdapter[] {
  const out: SourceAdapter[] = [];
  for (const agent of AGENTS) {
    const agentConfig = config.agents[agent];
    if (!agentConfig?.enabled) continue;
    out.push(createAgentAdapter(agent, storeRootsFor(agent, agentConfig, environment, config.wslDistros)));
  }
  return out;
}
