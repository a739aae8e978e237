/**
 * What `baton mcp status` says about the OpenCode plugin (or Kilo Code's copy of it): whether it is
 * installed, and whether an offline start would wait for its dependency install (see opencode-npmrc.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Environment } from '../../paths.js';
import { hasBatonNpmrc, npmrcFile } from './opencode-npmrc.js';
import { PLUGIN_HOSTS, type PluginHost } from './plugin-hosts.js';

export function pluginStatus(host: PluginHost, environment: Pick<Environment, 'env' | 'home'>): string[] {
  const { label, configDir, pluginFile, dependency } = PLUGIN_HOSTS[host];
  const plugin = pluginFile(environment);
  const command = `baton mcp install --agent ${host} --plugin`;
  if (!fs.existsSync(plugin)) return [`plugin: not installed (\`${command}\` pushes each turn to Baton at once and delivers handoffs)`];
  const notes = [`plugin: installed — ${plugin}`];
  const dir = configDir(environment);
  const installed = fs.existsSync(path.join(dir, 'node_modules', ...dependency.split('/'), 'package.json'));
  if (!installed && !hasBatonNpmrc(environment, host)) {
    notes.push(
      `${label} installs ${dependency} into ${dir} at each start until that succeeds; ` +
        `offline, npm's retries delay every start by ~70 s. Re-run \`${command}\` (adds fetch-retries=0 to ${npmrcFile(host, environment)}).`,
    );
  }
  return notes;
}

export function opencodePluginStatus(environment: Pick<Environment, 'env' | 'home'>): string[] {
  return pluginStatus('opencode', environment);
}
