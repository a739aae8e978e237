/**
 * `baton handoff <ref> --to <agent> [--open] [--json]`: save a pending handoff for the session's
 * folder, print (and copy) the brief rendered for the target, and with --open start the target in
 * a terminal there. With the target's start-up hook installed the brief arrives by itself.
 */
import { Option, type Command } from 'commander';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';
import { copyToClipboard } from './handoff-cli.js';

interface HandoffOptions {
  to: AgentId;
  open?: boolean;
  json?: boolean;
  copy: boolean;
  cwd?: string;
  summary?: string;
  redact: boolean;
}

export function registerHandoff(program: Command): void {
  program
    .command('handoff')
    .description('Hand a session off to another agent: its next session in the folder receives the brief by itself.')
    .argument('<session>', 'session id, id prefix or title words')
    .addOption(new Option('--to <agent>', 'the agent that continues').choices([...AGENTS]).makeOptionMandatory())
    .option('--open', 'start the target agent in a new terminal in the folder')
    .option('--json', 'print the handoff as JSON')
    .option('--cwd <dir>', "the folder the next agent works in (default: the session's)")
    .option('--summary <text>', 'where the work stands, for the brief (default: from the session)')
    .option('--no-copy', 'do not copy the brief to the clipboard')
    .option('--no-redact', 'keep secrets in what is printed')
    .action(async (ref: string, opts: HandoffOptions) => {
      const { openCliCore } = await import('../cli-core.js');
      const { core, close } = await openCliCore();
      try {
        const { handOff } = await import('../../core/handoff/hand-off.js');
        const { redacting } = await import('../cli-redaction.js');
        // What is printed (and copied) is redacted; the pending brief in baton.db always is (an agent reads it).
        const result = await redacting({ handOff }, !opts.redact).handOff(core, { session: ref, target: opts.to, open: opts.open, projectDir: opts.cwd, summary: opts.summary });
        const { checkpoint } = result;
        const target = checkpoint.handoff!;
        if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else process.stdout.write(result.brief.endsWith('\n') ? result.brief : `${result.brief}\n`);
        const label = AGENT_LABELS[opts.to];
        process.stderr.write(`baton: handoff ${checkpoint.id} to ${label} pending in ${target.projectDir} until ${target.expiresAt}\n`);
        if (!result.hooksInstalled) {
          const { command, via, what } = result.delivery;
          const how = via === 'hook' ? `run \`${command}\`` : via === 'paste' ? `paste the brief (${what})` : `run \`${command}\` (${what}), or paste the brief`;
          process.stderr.write(`baton: ${label} has no Baton start-up hook installed, so the brief will not arrive by itself: ${how}.\n`);
          if (via === 'paste') process.stderr.write(`baton: paste the brief into ${label}: ${what}.\n`);
          else {
            const how = via === 'hook' ? `run \`${command}\`` : `run \`${command}\` (${what}), or paste the brief`;
            process.stderr.write(`baton: ${label} has no Baton start-up hook installed, so the brief will not arrive by itself: ${how}.\n`);
          }
        }
        if (opts.copy && !opts.json) {
          try {
            copyToClipboard(result.brief);
            process.stderr.write('baton: brief copied to the clipboard\n');
          } catch (err) {
            process.stderr.write(`baton: ${(err as Error).message}\n`);
          }
        }
        if (result.opened) {
          if (result.opened.launched) process.stderr.write(`baton: opened ${label} in a new terminal: ${result.opened.command}\n`);
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
