/**
 * Installs the OpenCode plugin (integrations/opencode/baton.js) into OpenCode's global plugin
 * folder — or Kilo Code's (an OpenCode fork loading the same plugins, plugin-hosts.ts) — with
 * Baton's /ingest URL, the agent it reports for, and the path of Baton's token file filled in (the
 * plugin reads the token when it pushes, so the file holds no secret). Installed and removed like
 * the pi extension (baton-file.ts): a file that is not Baton's is left alone, and uninstall gives
 * back what was there, folders Baton created included.
 */
import fs from 'node:fs';
import type { Environment } from '../../paths.js';
import { currentHookRuntime, type HookRuntime } from '../hooks/hook-command.js';
import { assetPath } from '../../asset-path.js';
import type { McpEndpoint } from '../endpoint.js';
import type { McpInstallOutcome } from '../install-outcome.js';
import { changeBatonFile } from './baton-file.js';
import { PLUGIN_HOSTS, type PluginHost } from './plugin-hosts.js';

/** The plugin source, from the sources or next to a build. */
export function pluginSourceFile(): string {
  const file = assetPath('integrations', 'opencode', 'baton.js');
  if (!fs.existsSync(file)) throw new Error(`The OpenCode plugin source is missing (looked for ${file}).`);
  return file;
}

/** A JavaScript string literal (JSON's escaping is valid JavaScript). */
function literal(value: string): string {
  return JSON.stringify(value);
}

export function renderPlugin(endpoint: McpEndpoint & { tokenFile: string }, runtime: HookRuntime = currentHookRuntime(), host: PluginHost = 'opencode'): string {
  const ingestUrl = endpoint.url.replace(/\/mcp$/, '/ingest');
  return fs
    .readFileSync(pluginSourceFile(), 'utf8')
    .replace("'__BATON_AGENT__'", literal(host))
    .replace("'__BATON_INGEST_URL__'", literal(ingestUrl))
    .replace("'__BATON_TOKEN_FILE__'", literal(endpoint.tokenFile))
    .replace("'__BATON_HOOK__'", literal(JSON.stringify([runtime.node, runtime.script])));
}

/** Baton's plugin is in the agent's global plugin folder (its start-up injection delivers pending handoffs). */
export function pluginInstalled(host: PluginHost, environment: Pick<Environment, 'env' | 'home'>): boolean {
  return fs.existsSync(PLUGIN_HOSTS[host].pluginFile(environment));
}

export function opencodePluginInstalled(environment: Pick<Environment, 'env' | 'home'>): boolean {
  return pluginInstalled('opencode', environment);
}

const MARKER = 'Baton plugin for OpenCode';

export interface OpencodePluginOptions {
  environment: Environment;
  dryRun?: boolean;
  now?: () => Date;
  /** Baton's data dir, where the install record lives (default: the environment's). */
  dataDir?: string;
}

function change(host: PluginHost, opts: OpencodePluginOptions, action: 'install' | 'uninstall', content: string) {
  const { label, pluginFile } = PLUGIN_HOSTS[host];
  const file = pluginFile(opts.environment);
  const outcome = changeBatonFile({ file, action, content, isBatons: (text) => text.includes(MARKER), what: `Baton's ${label} plugin`, entry: `${host}-plugin`, ...opts });
  const base = { agent: host, file, backup: outcome.backup, diff: outcome.diff, ok: outcome.ok, changed: outcome.ok && outcome.kind !== 'unchanged' && !opts.dryRun };
  return { file, outcome, base };
}

export function installPlugin(host: PluginHost, opts: OpencodePluginOptions & { endpoint: McpEndpoint & { tokenFile: string } }): McpInstallOutcome {
  const { label } = PLUGIN_HOSTS[host];
  const { file, outcome, base } = change(host, opts, 'install', renderPlugin(opts.endpoint, undefined, host));
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not write ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} is up to date.` };
  if (opts.dryRun) return { ...base, message: `Would write the ${label} plugin to ${file} (dry run).` };
  return { ...base, message: `Installed the ${label} plugin at ${file}; restart ${label} to load it${outcome.backup ? `; backup at ${outcome.backup}` : ''}.` };
}

export function uninstallPlugin(host: PluginHost, opts: OpencodePluginOptions): McpInstallOutcome {
  const { label } = PLUGIN_HOSTS[host];
  const { file, outcome, base } = change(host, opts, 'uninstall', '');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not remove ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} does not exist; nothing to remove.` };
  if (opts.dryRun) return { ...base, message: `Would remove ${file} (dry run).` };
  return { ...base, message: outcome.kind === 'restored' ? `Removed the ${label} plugin: ${file} holds its bytes from before the install again.` : `Removed the ${label} plugin ${file}.` };
}

export function installOpencodePlugin(opts: OpencodePluginOptions & { endpoint: McpEndpoint & { tokenFile: string } }): McpInstallOutcome {
  return installPlugin('opencode', opts);
}

export function uninstallOpencodePlugin(opts: OpencodePluginOptions): McpInstallOutcome {
  return uninstallPlugin('opencode', opts);
}
