/**
 * The source adapters for a settings snapshot: this machine's stores (sources/local-adapters.ts)
 * and, for each enabled machine, the stores it serves over SSH. Worker threads import this module
 * by path (worker-launch.ts) and build the same adapters from the same plain config.
 */
import type { MachineSettings } from '../../../shared/settings.js';
import type { Environment } from '../paths.js';
import { createRemoteAdapters } from '../remote/remote-adapter.js';
import type { RemoteHostOptions } from '../remote/remote-host.js';
import { createLocalAdapters, type LocalSourcesConfig } from '../sources/local-adapters.js';
import type { SourceAdapter } from '../sources/types.js';

export interface SourcesConfig extends LocalSourcesConfig {
  /** Other machines read over SSH (enabled ones only are read); none when absent. */
  machines?: MachineSettings[];
  remote?: RemoteHostOptions;
}

export function createAdapters(config: SourcesConfig, environment: Environment): SourceAdapter[] {
  const out = createLocalAdapters(config, environment);
  // Remote adapters connect on first use, so building them (in each worker) opens nothing. Which
  // agents a host serves is the host's to say (its hello), not what this machine has enabled.
  for (const machine of config.machines ?? []) {
    if (machine.enabled) out.push(...createRemoteAdapters(machine, config.remote));
  }
  return out;
}
