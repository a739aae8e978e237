/**
 * `baton mcp install|uninstall|status`: register Baton's MCP endpoint (with its token) in each
 * agent's own config, and optionally the OpenCode plugin that pushes session updates.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { TokenStore } from '../../core/auth/token-store.js';
import { SettingsStore } from '../../core/settings/settings-store.js';
import { batonDataDir, currentEnvironment, type Environment } from '../../core/paths.js';
import { mcpEndpoint, type McpEndpoint } from '../../core/mcp/install/endpoint.js';
import { installMcp, keepPrivate, mcpInstallStatus, uninstallMcp, type McpInstallOutcome } from '../../core/mcp/install/installer.js';
import { installOpencodePlugin, uninstallOpencodePlugin } from '../../core/mcp/install/opencode-plugin.js';
import { installOpencodeNpmrc, uninstallOpencodeNpmrc } from '../../core/mcp/install/opencode-npmrc.js';
import { opencodePluginStatus } from '../../core/mcp/install/opencode-status.js';
import { readServerMarker } from '../../core/handoff/server-marker.js';
import { findOnPath, registerWithClaudeCli, unregisterWithClaudeCli } from '../../core/mcp/install/claude-cli.js';
import { mcpConfigFile } from '../../core/mcp/install/config-locations.js';
import { parsePort } from '../options.js';

interface McpOptions {
  agent: AgentId | 'all';
  dryRun?: boolean;
  plugin?: boolean;
  port?: number;
  claudeCli: boolean;
}

/**
 * The port to register: `--port`, else the port a running Baton serves on (`baton serve --port`
 * may differ from the setting), else the "port" setting.
 */
function endpointFor(environment: Environment, port?: number): { endpoint: McpEndpoint; settingsPort: number; serving: number | null } {
  const dataDir = batonDataDir(environment);
  const settingsPort = new SettingsStore(dataDir).get().port;
  const serving = readServerMarker(dataDir)?.port ?? null;
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

/** Claude through its CLI when present (not for dry runs, which show the file diff instead). */
function viaClaudeCli(opts: McpOptions, environment: Environment, action: 'install' | 'uninstall', endpoint: McpEndpoint): McpInstallOutcome | null {
  if (!opts.claudeCli || opts.dryRun || (opts.agent !== 'claude' && opts.agent !== 'all')) return null;
  const claude = findOnPath('claude', environment.env);
  if (!claude) return null;
  const file = mcpConfigFile('claude', environment);
  try {
    if (action === 'install') {
      registerWithClaudeCli(claude, endpoint, environment.env);
      // `claude mcp add` writes the header (with the token) into .claude.json as it is.
      if (fs.existsSync(file)) keepPrivate(file, fs.readFileSync(file, 'utf8'), endpoint.token);
    } else unregisterWithClaudeCli(claude, endpoint.name, environment.env);
    return { agent: 'claude', file, changed: true, backup: null, ok: true, diff: '', message: `${action === 'install' ? 'Registered' : 'Removed'} "${endpoint.name}" with \`claude mcp\` (user scope).` };
  } catch (err) {
    return { agent: 'claude', file, changed: false, backup: null, ok: false, diff: '', message: `\`claude mcp\` failed: ${(err as Error).message.split('\n')[0]}. Re-run with --no-claude-cli to edit ${file} directly.` };
  }
}

function run(action: 'install' | 'uninstall', opts: McpOptions): void {
  const environment = currentEnvironment();
  const { endpoint } = endpointFor(environment, opts.port);
  const results: McpInstallOutcome[] = [];
  const claude = viaClaudeCli(opts, environment, action, endpoint);
  if (claude) results.push(claude);
  const agents = opts.agent === 'all' ? AGENTS.filter((a) => !(claude && a === 'claude')) : claude ? [] : [opts.agent];
  const apply = action === 'install' ? installMcp : uninstallMcp;
  for (const agent of agents) results.push(...apply({ agent, endpoint, environment, dryRun: opts.dryRun }));
  if (opts.plugin && (opts.agent === 'opencode' || opts.agent === 'all')) {
    const withFile = { ...endpoint, tokenFile: endpoint.tokenFile ?? path.join(batonDataDir(environment), 'token') };
    if (action === 'install') {
      results.push(installOpencodePlugin({ environment, endpoint: withFile, dryRun: opts.dryRun }));
      results.push(installOpencodeNpmrc({ environment, dryRun: opts.dryRun }));
    } else {
      results.push(uninstallOpencodePlugin({ environment, dryRun: opts.dryRun }));
      results.push(uninstallOpencodeNpmrc({ environment, dryRun: opts.dryRun }));
    }
  }
  print(results, Boolean(opts.dryRun), endpoint.token);
  if (action === 'install' && !opts.dryRun && results.some((r) => r.changed)) {
    process.stdout.write('Restart the agents you registered so they connect to Baton.\n');
  }
}

function agentOption(): Option {
  return new Option('-a, --agent <agent>', 'which agent').choices([...AGENTS, 'all']).default('all');
}

export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('Register Baton’s MCP endpoint with each agent (for pi, which has no MCP client: Baton’s pi extension).');
  mcp
    .command('install')
    .description('Add Baton to each agent’s MCP configuration (backs up each file first).')
    .addOption(agentOption())
    .option('--dry-run', 'print the changes as a diff without writing')
    .option('--plugin', 'also install the OpenCode plugin that pushes session updates to Baton')
    .option('-p, --port <port>', 'port to register (default: the port the running Baton serves on, else the "port" setting)', parsePort)
    .option('--no-claude-cli', 'edit ~/.claude.json directly even when the `claude` CLI is installed')
    .action((opts: McpOptions) => run('install', opts));
  mcp
    .command('uninstall')
    .description('Remove Baton’s entry (only that entry) from each agent’s MCP configuration.')
    .addOption(agentOption())
    .option('--dry-run', 'print the changes as a diff without writing')
    .option('--plugin', 'also remove the OpenCode plugin')
    .option('--no-claude-cli', 'edit ~/.claude.json directly even when the `claude` CLI is installed')
    .action((opts: McpOptions) => run('uninstall', opts));
  mcp
    .command('status')
    .description('Show, per agent, whether Baton is registered with the current URL and token.')
    .addOption(agentOption())
    .option('-p, --port <port>', 'port to compare with (default: the port the running Baton serves on, else the "port" setting)', parsePort)
    .action((opts: McpOptions) => {
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
        if (s.agent === 'opencode') for (const note of opencodePluginStatus(environment)) process.stdout.write(`  ${note}\n`);
      }
    });
}
