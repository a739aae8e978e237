import type { Command } from 'commander';
import { collect, openHandoffCli } from './handoff-cli.js';

export function registerCheckpoint(program: Command): void {
  program
    .command('checkpoint')
    .description('Save a checkpoint of a session: summary, decisions, next steps, and the git state now.')
    .argument('[session]', 'session id, id prefix or title words')
    .option('--last', 'the most recent session (in --cwd, when given)')
    .option('--cwd <dir>', 'with --last: the most recent session that ran in this directory')
    .requiredOption('--summary <text>', 'where the work stands')
    .option('--decision <text>', 'a settled decision (repeatable)', collect, [])
    .option('--next <text>', 'a next step (repeatable)', collect, [])
    .option('--blocker <text>', 'an open blocker (repeatable)', collect, [])
    .option('--done <text>', 'an item completed (repeatable)', collect, [])
    .option('--added <text>', 'a new item raised (repeatable)', collect, [])
    .option('--file <path>', 'a file changed (repeatable)', collect, [])
    .option('--token <token>', 'idempotency token: a retry with the same token saves nothing twice')
    .option('--json', 'print the checkpoint as JSON')
    .action(
      async (
        ref: string | undefined,
        opts: { last?: boolean; cwd?: string; summary: string; decision: string[]; next: string[]; blocker: string[]; done: string[]; added: string[]; file: string[]; token?: string; json?: boolean },
      ) => {
        const cli = await openHandoffCli();
        try {
          const session = await cli.sessionId(ref, opts);
          const cp = await cli.service.createCheckpoint(
            {
              summary: opts.summary,
              decisions: opts.decision,
              nextSteps: opts.next,
              blockers: opts.blocker,
              itemsCompleted: opts.done,
              itemsAdded: opts.added,
              filesChanged: opts.file,
              idempotencyToken: opts.token,
            },
            session,
          );
          if (opts.json) process.stdout.write(`${JSON.stringify(cp, null, 2)}\n`);
          else {
            const git = cp.git?.isRepo ? `branch ${cp.git.branch ?? '(detached)'} at ${cp.git.head?.slice(0, 12) ?? 'no commit'}` : (cp.git?.error ?? 'no git state');
            process.stdout.write(`Checkpoint ${cp.id} saved for ${cp.sessionId} (${git}).\n`);
          }
        } finally {
          await cli.close();
        }
      },
    );
}
