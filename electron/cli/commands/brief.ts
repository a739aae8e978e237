import type { Command } from 'commander';
import { BRIEF_TARGETS } from '../../../shared/model.js';
import type { BriefFormat, BriefResult } from '../../../shared/api-types.js';
import { budgetOption, copyToClipboard, lastSessionId, targetOption } from './handoff-cli.js';

const FORMATS: BriefFormat[] = ['md', 'delimit', 'govzero', 'envelope'];

export function registerBrief(program: Command): void {
  program
    .command('brief')
    .description('Print the handoff brief of a session (secrets redacted).')
    .argument('[session]', 'session id, id prefix or title words')
    .option('--last', 'the most recent session (in --cwd, when given)')
    .option('--cwd <dir>', 'with --last: the most recent session that ran in this directory')
    .option('--target <agent>', BRIEF_TARGETS.join(', '))
    .option('--format <format>', `output format: ${FORMATS.join(', ')}`, 'md')
    .option('--budget <tokens>', 'token budget for the Markdown brief', budgetOption)
    .option('--no-redact', 'keep secrets in the brief')
    .option('--copy', 'also copy the brief to the clipboard')
    .action(async (ref: string | undefined, opts: { last?: boolean; cwd?: string; target?: string; format: string; budget?: number; redact: boolean; copy?: boolean }) => {
      if (!FORMATS.includes(opts.format as BriefFormat)) throw new Error(`unknown format "${opts.format}" (expected ${FORMATS.join(', ')})`);
      if (!opts.last && !ref) throw new Error('Name a session (id, id prefix or title words) or use --last.');
      // A running Baton answers when there is one (see cli-api.ts); otherwise this process's own
      // index, through the lean brief core (brief-core.ts), not the whole core.
      const request = { target: targetOption(opts.target), format: opts.format as BriefFormat, budget: opts.budget, redact: opts.redact };
      const { openServerApi, noteWaitOnce } = await import('../cli-api.js');
      // `--last` must be the latest session: a running Baton's pass (its first one too) is waited for.
      const server = opts.redact ? await openServerApi(undefined, { firstPass: 'wait', onWait: noteWaitOnce() }) : null;
      let brief: BriefResult;
      if (server) {
        brief = await server.api.generateBrief({ ...request, session: opts.last ? await lastSessionId(server.api, opts.cwd) : ref! });
      } else {
        const { openBriefCore } = await import('../brief-core.js');
        const { redacting } = await import('../cli-redaction.js');
        const core = await openBriefCore();
        try {
          const session = opts.last ? await lastSessionId(core.sessions, opts.cwd) : ref!;
          brief = await redacting(core.handoff, !opts.redact).generateBrief({ ...request, session });
        } finally {
          await core.close();
        }
      }
      process.stdout.write(brief.text.endsWith('\n') ? brief.text : `${brief.text}\n`);
      const redactions = Object.entries(brief.redactions).map(([k, n]) => `${n} ${k}`).join(', ');
      process.stderr.write(
        `baton: ${brief.tokens} tokens (budget ${brief.budget})${redactions ? `; redacted ${redactions}` : ''}${brief.openCommand ? `; open with: ${brief.openCommand}` : ''}\n`,
      );
      if (opts.copy) {
        copyToClipboard(brief.text);
        process.stderr.write('baton: copied to the clipboard\n');
      }
    });
}
