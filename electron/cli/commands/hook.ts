/**
 * `baton hook <event> --agent <a>` as `baton --help` lists it. bin/baton.mjs runs this command
 * through its own lean bundle before commander loads; this entry only serves builds run another way.
 */
import type { Command } from 'commander';
import { HOOK_EVENTS } from '../../core/install/hooks/hook-events.js';

export function registerHook(program: Command): void {
  program
    .command('hook')
    .description(`What an agent's hook runs (${HOOK_EVENTS.join(', ')}); reads the hook JSON on stdin, never fails the agent.`)
    .argument('<event>', HOOK_EVENTS.join(' | '))
    .option('--agent <agent>', 'the agent running the hook')
    .option('--session-id <id>', "the agent's session id, when its hook input has none")
    .option('--cwd <dir>', 'the session folder, when its hook input has none')
    .allowUnknownOption()
    .action(async (_event: string, _opts: unknown, command: Command) => {
      const { main } = await import('../../core/handoff/hook-main.js');
      process.exitCode = await main(command.parent!.args.slice(1));
    });
}
