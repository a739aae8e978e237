/**
 * `baton continue <ref> --in <agent> [--json] [--open] [--cwd DIR]`: write the session into the
 * agent's own store as a new session continued from it (core/continue/), and print the command that
 * resumes it. `baton continue --undo <session>` removes exactly what such a run wrote.
 */
import { Option, type Command } from 'commander';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';

interface ContinueOptions {
  in?: AgentId;
  json?: boolean;
  open?: boolean;
  cwd?: string;
  undo?: string;
}

export function registerContinue(program: Command): void {
  program
    .command('continue')
    .description("Continue a session natively in another agent: a new session in that agent's own store, resumable with its own command.")
    .argument('[session]', 'session id, id prefix or title words')
    .addOption(new Option('--in <agent>', 'the agent that continues').choices([...AGENTS]))
    .option('--json', 'print the result as JSON ({ agent, session, resume, … })')
    .option('--open', 'resume it in a new terminal in the folder')
    .option('--cwd <dir>', "the folder the continued session belongs to (default: the session's)")
    .option('--undo <session>', 'remove a continued session Baton wrote (its id as printed)')
    .action(async (ref: string | undefined, opts: ContinueOptions) => {
      if (!opts.undo && (!ref || !opts.in)) throw new Error('name a session and the agent: baton continue <session> --in <agent> (or --undo <session>)');
      const { openCliCore } = await import('../cli-core.js');
      const { core, close } = await openCliCore();
      try {
        const { continueSession, undoContinuation } = await import('../../core/continue/continue-session.js');
        const { redacting } = await import('../cli-redaction.js');
        const ops = redacting({ continueSession: async (...a: Parameters<typeof continueSession>) => continueSession(...a), undo: async (r: string) => undoContinuation(core, r) }, false);
        if (opts.undo) {
          const result = await ops.undo(opts.undo);
          if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
          else process.stdout.write(`Removed ${result.sessionId}:\n${result.removed.map((r) => `  ${r}\n`).join('')}`);
          return;
        }
        const result = await ops.continueSession(core, { session: ref!, target: opts.in!, cwd: opts.cwd, open: opts.open });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        } else {
          const label = AGENT_LABELS[result.agent];
          process.stdout.write(`${result.reused ? 'Already continued' : 'Continued'} in ${label}: ${result.session}\n`);
          process.stdout.write(`  ${result.title}\n  ${result.turns} verbatim turns + the brief, ${result.tokens} tokens of a ${result.contextWindow}-token window\n`);
          for (const note of result.notes) process.stdout.write(`  note: ${note}\n`);
          process.stdout.write(`Resume it: ${result.resumeCommand}\n`);
        }
        for (const warning of result.warnings) process.stderr.write(`baton: warning: ${warning}\n`);
        if (result.opened) {
          if (result.opened.launched) process.stderr.write(`baton: opened a terminal: ${result.opened.command}\n`);
          else {
            process.stderr.write(`baton: ${result.opened.error ?? 'could not open a terminal'}\nbaton: run it yourself: ${result.opened.command}\n`);
            process.exitCode = 1;
          }
        }
      } finally {
        await close();
      }
    });
}
