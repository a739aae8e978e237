/** What `baton mcp install|uninstall|status` do (see mcp.ts for the commands themselves). */
import path from 'node:path';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { TokenStore } from '../../core/auth/token-store.js';
import { SettingsStore } from '../../core/settings/settings-store.js';
import { batonDataDir, currentEnvironment, type Environment } from '../../core/paths.js';
import { mcpEndpoint, type McpEndpoint } from '../../core/install/endpoint.js';
import { installMcp, mcpInstallStatus, uninstallMcp } from '../../core/install/mcp-entries/mcp-installer.js';
import type { McpInstallOutcome } from '../../core/install/install-outcome.js';
import { installPlugin, uninstallPlugin } from '../../core/install/plugins/opencode-plugin.js';
import { installNpmrc, uninstallNpmrc } from '../../core/install/plugins/opencode-npmrc.js';
import { pluginStatus } from '../../core/install/plugins/opencode-status.js';
import { isPluginHost, type PluginHost } from '../../core/install/plugins/plugin-hosts.js';
import { clinePluginStatus, installClinePlugin, uninstallClinePlugin } from '../../core/install/plugins/cline-plugin.js';
import { readServerFile } from '../../core/server/server-file.js';

export interface McpOptions {
  agent: AgentId | 'all';
  dryRun?: boolean;
  plugin?: boolean;
  port?: number;
}

/**
 * The port to register: `--port`, else the port a running Baton serves on (`baton serve --port`
 * may differ from the setting), else the "port" setting.
 */
function endpointFor(environment: Environment, port?: number): { endpoint: McpEndpoint; settingsPort: number; serving: number | null } {
  const dataDir = batonDataDir(environment);
  const settingsPort = new SettingsStore(dataDir).get().port;
  const serving = readServerFile(dataDir)?.port ?? null;
  const tokens = new TokenStore(dataDir);
  const endpoint = mcpEndpoint(port ?? serving ?? settingsPort, tokens.get(), undefined, path.join(dataDir, 'token'));
  return { endpoint, settingsPort, serving };
}

function print(results: McpInstallOutcome[], dryRun: boolean, token: string): void {
  for (const r of results) {
    process.stdout.write(`${r.ok ? (r.changed ? '✔' : '·') : '✘'} ${r.agent}: ${r.message}\n`);
    // Diffs end up in terminals and logs: show where the token goes, not the token itself.
    if (r.diff && (dryRun || process.env.BATON_VERBOSE)) process.stdout.write(`${r.diff.split(token).join('<token>')}\n`);
  }
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

export function runMcp(action: 'install' | 'uninstall', opts: McpOptions): void {
  const environment = currentEnvironment();
  const { endpoint } = endpointFor(environment, opts.port);
  const results: McpInstallOutcome[] = [];
  // Claude Code's ~/.claude.json is edited like every other config, not through `claude mcp add`:
  // that would put the token on a command line, which every local user can read in /proc while it runs.
  const agents = opts.agent === 'all' ? AGENTS : [opts.agent];
  const apply = action === 'install' ? installMcp : uninstallMcp;
  for (const agent of agents) results.push(...apply({ agent, endpoint, environment, dryRun: opts.dryRun }));
  // The OpenCode plugin, for OpenCode and for Kilo Code (its fork loads the same plugins).
  const hosts: PluginHost[] = opts.plugin ? [...agents].filter(isPluginHost) : [];
  for (const host of hosts) {
    const withFile = { ...endpoint, tokenFile: endpoint.tokenFile ?? path.join(batonDataDir(environment), 'token') };
    if (action === 'install') {
      results.push(installPlugin(host, { environment, endpoint: withFile, dryRun: opts.dryRun }));
      results.push(installNpmrc(host, { environment, dryRun: opts.dryRun }));
    } else {
      results.push(uninstallPlugin(host, { environment, dryRun: opts.dryRun }));
      results.push(uninstallNpmrc(host, { environment, dryRun: opts.dryRun }));
    }
  }
  if (opts.plugin && (opts.agent === 'cline' || opts.agent === 'all')) {
    const pluginOpts = { environment, dataDir: batonDataDir(environment), dryRun: opts.dryRun };
    results.push(action === 'install' ? installClinePlugin(pluginOpts) : uninstallClinePlugin(pluginOpts));
  }
  print(results, Boolean(opts.dryRun), endpoint.token);
  if (action === 'install' && !opts.dryRun && results.some((r) => r.changed)) {
    process.stdout.write('Restart the agents you registered so they connect to Baton.\n');
  }
}

export function mcpStatus(opts: McpOptions): void {
  const environment = currentEnvironment();
  const { endpoint, settingsPort, serving } = endpointFor(environment, opts.port);
  if (opts.port === undefined && serving !== null && serving !== settingsPort) {
    process.stdout.write(`Baton is serving on port ${serving}, not the "port" setting (${settingsPort}); comparing with ${serving}.\n`);
  }
  for (const s of mcpInstallStatus({ agent: opts.agent, endpoint, environment })) {
    const state = s.current
      ? 'registered'
      : !s.installed
        ? 'not registered'
        : s.registeredUrl && s.registeredUrl !== endpoint.url
          ? `registered for ${s.registeredUrl}, but Baton is at ${endpoint.url}: MISMATCH (run \`baton mcp install\`)`
          : 'registered with an old token or format (run `baton mcp install`)';
    process.stdout.write(`${s.agent}: ${state} — ${s.file}\n`);
    if (isPluginHost(s.agent)) for (const note of pluginStatus(s.agent, environment)) process.stdout.write(`  ${note}\n`);
    if (s.agent === 'cline') for (const note of clinePluginStatus(environment)) process.stdout.write(`  ${note}\n`);
  }
}
