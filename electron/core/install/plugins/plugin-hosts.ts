/**
 * The agents that load Baton's OpenCode plugin (integrations/opencode/baton.js): OpenCode, and Kilo
 * Code, an OpenCode fork whose 7.7 loader takes the same plugin files from its own config folder
 * (`{plugin,plugins}/*.{ts,js}`) and hands them the same hooks and SDK client.
 */
import type { Environment } from '../../paths.js';
import { kiloConfigDir, kiloPluginFile, opencodeConfigDir, opencodePluginFile } from '../config/config-locations.js';

export type PluginHost = 'opencode' | 'kilo';

export interface PluginHostInfo {
  label: string;
  configDir(environment: Pick<Environment, 'env' | 'home'>): string;
  pluginFile(environment: Pick<Environment, 'env' | 'home'>): string;
  /** The package the agent npm-installs into its config folder once any plugin is there. */
  dependency: string;
}

export const PLUGIN_HOSTS: Record<PluginHost, PluginHostInfo> = {
  opencode: { label: 'OpenCode', configDir: opencodeConfigDir, pluginFile: opencodePluginFile, dependency: '@opencode-ai/plugin' },
  kilo: { label: 'Kilo Code', configDir: kiloConfigDir, pluginFile: kiloPluginFile, dependency: '@kilocode/plugin' },
};

export function isPluginHost(agent: string): agent is PluginHost {
  return agent === 'opencode' || agent === 'kilo';
}
