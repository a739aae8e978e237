/**
 * Which indexed sessions a reader shows, from the settings: those of the stores configured now
 * (enabled agents' roots, enabled machines' `ssh://<label>/…`), minus excluded projects (a leading
 * tilde means home). The API's lists and the CLI's lean `brief --last` both ask this one function.
 */
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { machineLabel } from '../../../shared/machines.js';
import type { Settings } from '../../../shared/settings.js';
import type { SessionVisibility } from '../index/session-visibility.js';
import { remotePath } from '../remote/remote-ids.js';

export function settingsVisibility(settings: Settings, home: string, storeRoots: (agent: AgentId) => string[]): SessionVisibility {
  const roots: Partial<Record<AgentId, string[]>> = {};
  for (const agent of AGENTS) if (settings.agents[agent].enabled) roots[agent] = storeRoots(agent);
  for (const machine of settings.machines) {
    if (!machine.enabled) continue;
    for (const agent of machine.agents ?? AGENTS) roots[agent] = [...(roots[agent] ?? []), remotePath(machineLabel(machine), '/')];
  }
  const excludeCwdGlobs = settings.excludedProjects.map((g) => (g === '~' || g.startsWith('~/') ? home + g.slice(1) : g));
  return { roots, excludeCwdGlobs };
}
