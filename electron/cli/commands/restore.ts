import type { Command } from 'commander';
import { BRIEF_TARGETS } from '../../../shared/model.js';
import { budgetOption, copyToClipboard, openHandoffCli, targetOption } from './handoff-cli.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('Show what changed in git since the last checkpoint, then the brief (marks the handoff received).')
    .argument('[session]', 'session id, id prefix or title words')
    .option('--last', 'the most recent session (in --cwd, when given)')
    .option('--cwd <dir>', 'with --last: the most recent session that ran in this directory')
    .option('--target <agent>', BRIEF_TARGETS.join(', '))
    .option('--budget <tokens>', 'token budget for the brief', budgetOption)
    .option('--dry-run', 'only show the drift; do not print the brief or mark the checkpoint')
    .option('--copy', 'also copy the brief to the clipboard')
    .option('--no-redact', 'keep secrets in the output')
    .action(async (ref: string | undefined, opts: { last?: boolean; cwd?: string; target?: string; budget?: number; dryRun?: boolean; copy?: boolean; redact: boolean }) => {
      const cli = await openHandoffCli({ reveal: !opts.redact });
      try {
        const sessionId = await cli.sessionId(ref, opts);
        const result = await cli.service.restore({ sessionId, confirmed: !opts.dryRun, target: targetOption(opts.target), budget: opts.budget, redact: opts.redact });
        // Drift first, on stderr, so stdout stays a clean brief for piping into the next agent.
        process.stderr.write(`${result.summary}\n`);
        const d = result.drift;
        if (d && !d.error) {
          for (const c of d.commitsSince.slice(0, 20)) process.stderr.write(`  commit ${c.hash.slice(0, 12)} ${c.subject}\n`);
          for (const f of d.filesChangedSince.slice(0, 50)) process.stderr.write(`  changed ${f}\n`);
        }
        if (result.brief) {
          process.stdout.write(result.brief.text.endsWith('\n') ? result.brief.text : `${result.brief.text}\n`);
          if (result.brief.openCommand) process.stderr.write(`baton: open with: ${result.brief.openCommand}\n`);
          if (opts.copy) copyToClipboard(result.brief.text);
        }
      } finally {
        await cli.close();
      }
    });
}
