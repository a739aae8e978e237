/**
 * `baton mcp install|uninstall|status`: register Baton's MCP endpoint (with its token) in each
 * agent's own config, and optionally the OpenCode plugin (OpenCode, Kilo Code) that pushes session
 * updates and delivers handoffs. The work is in mcp-run.ts, loaded only when one of these commands runs.
 */
import { Option, type Command } from 'commander';
import { AGENTS } from '../../../shared/model.js';
import { parsePort } from '../options.js';
import type { McpOptions } from './mcp-run.js';

function agentOption(): Option {
  return new Option('-a, --agent <agent>', 'which agent').choices([...AGENTS, 'all']).default('all');
}

/** Accepted for old scripts: Baton always edits ~/.claude.json itself (the `claude` CLI would get the token in its argv). */
function noClaudeCli(): Option {
  return new Option('--no-claude-cli').hideHelp();
}

export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('Register Baton’s MCP endpoint with each agent (for pi, which has no MCP client: Baton’s pi extension).');
  mcp
    .command('install')
    .description('Add Baton to each agent’s MCP configuration (backs up each file first).')
    .addOption(agentOption())
    .option('--dry-run', 'print the changes as a diff without writing')
    .option('--plugin', 'also install the plugin that delivers handoffs: the OpenCode plugin (OpenCode, Kilo Code; it also pushes session updates to Baton) or the Cline plugin')
    .option('-p, --port <port>', 'port to register (default: the port the running Baton serves on, else the "port" setting)', parsePort)
    .addOption(noClaudeCli())
    .action(async (opts: McpOptions) => (await import('./mcp-run.js')).runMcp('install', opts));
  mcp
    .command('uninstall')
    .description('Remove Baton’s entry (only that entry) from each agent’s MCP configuration.')
    .addOption(agentOption())
    .option('--dry-run', 'print the changes as a diff without writing')
    .option('--plugin', 'also remove the OpenCode plugin (OpenCode, Kilo Code) or the Cline plugin')
    .addOption(noClaudeCli())
    .action(async (opts: McpOptions) => (await import('./mcp-run.js')).runMcp('uninstall', opts));
  mcp
    .command('status')
    .description('Show, per agent, whether Baton is registered with the current URL and token.')
    .addOption(agentOption())
    .option('-p, --port <port>', 'port to compare with (default: the port the running Baton serves on, else the "port" setting)', parsePort)
    .action(async (opts: McpOptions) => (await import('./mcp-run.js')).mcpStatus(opts));
}
