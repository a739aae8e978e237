/**
 * `baton hooks install|uninstall|status [--agent A|all] [--dry-run]`: Baton's start-up, PreCompact
 * and Stop hooks in each agent's own config (Claude Code, Codex, Hermes, Gemini CLI, Qwen Code). Same care as
 * `baton mcp install`: backup before every write, only Baton's entries, idempotent.
 */
import { Option, type Command } from 'commander';
import type { AgentId } from '../../../shared/model.js';
import type { AgentHooksStatus, HooksChangeResult } from '../../../shared/api-types.js';
import { batonDataDir, currentEnvironment } from '../../core/paths.js';

// The installers (and their config parsers) load only when a hooks command runs.
const installer = () => import('../../core/install/hooks/hooks-installer.js');
import { HOOK_AGENTS } from '../../core/install/hooks/hook-targets.js';

interface HooksOptions {
  agent: AgentId | 'all';
  dryRun?: boolean;
  json?: boolean;
}

async function context(opts: HooksOptions) {
  const environment = currentEnvironment();
  const dataDir = batonDataDir(environment);
  const { hookRuntimeFor } = await import('../../core/install/hooks/hook-command.js');
  return { agent: opts.agent, environment, runtime: hookRuntimeFor(environment, dataDir), dataDir, dryRun: opts.dryRun };
}

function printChanges(results: HooksChangeResult[], opts: HooksOptions): void {
  if (opts.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else {
    for (const r of results) {
      process.stdout.write(`${r.ok ? (r.changed ? '✔' : '·') : '✘'} ${r.agent}: ${r.message}\n`);
      if (r.diff && (opts.dryRun || process.env.BATON_VERBOSE)) process.stdout.write(`${r.diff}\n`);
    }
  }
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

export function printStatus(statuses: AgentHooksStatus[]): void {
  for (const s of statuses) {
    const events = s.events.map((e) => `${e.event} ${e.current ? '✔' : e.installed ? '(other Baton)' : '✘'}`).join(', ');
    process.stdout.write(`${s.installed ? '✔' : '✘'} ${s.agent}: ${s.file}\n    ${events}\n`);
    for (const note of s.notes) process.stdout.write(`    - ${note}\n`);
  }
}

function agentOption(): Option {
  return new Option('-a, --agent <agent>', 'which agent').choices([...HOOK_AGENTS, 'all']).default('all');
}

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description("Install Baton's hooks into Claude Code, Codex and Hermes (handoffs arrive by themselves).");
  hooks
    .command('install')
    .description("add Baton's hooks (backup first; only Baton's entries)")
    .addOption(agentOption())
    .option('--dry-run', 'show the change as a diff; write nothing')
    .option('--json', 'print the results as JSON')
    .action(async (opts: HooksOptions) => printChanges((await installer()).installHooks(await context(opts)), opts));
  hooks
    .command('uninstall')
    .description("remove Baton's hooks (the file as it was before, when unchanged since)")
    .addOption(agentOption())
    .option('--dry-run', 'show the change as a diff; write nothing')
    .option('--json', 'print the results as JSON')
    .action(async (opts: HooksOptions) => printChanges((await installer()).uninstallHooks(await context(opts)), opts));
  hooks
    .command('status')
    .description("whether Baton's hooks are installed, and what each agent still needs")
    .addOption(agentOption())
    .option('--json', 'print the status as JSON')
    .action(async (opts: HooksOptions) => {
      const statuses = (await installer()).hooksStatus(await context(opts));
      if (opts.json) process.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
      else printStatus(statuses);
    });
}
