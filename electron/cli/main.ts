/**
 * The `baton` command line. Each command lives in `commands/<name>.ts` and registers itself on the
 * commander program; this file only assembles them and turns failures into one clear line.
 */
import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../core/version.js';
import { registerCommands } from './commands/index.js';
import { guardTerminalOutput } from './terminal-output.js';

export async function runCli(argv: string[]): Promise<number> {
  // Every byte written from here on is sanitised: session text never drives the terminal.
  const unguard = guardTerminalOutput();
  try {
    return await run(argv);
  } finally {
    unguard();
  }
}

async function run(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('baton')
    .description('Switch AI coding agents mid-task without re-explaining anything.')
    .version(BATON_VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerCommands(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    // Loaded only on failure: an "ambiguous" error quotes session titles, which may hold secrets.
    const { cliErrorMessage } = await import('./cli-redaction.js');
    process.stderr.write(`baton: ${await cliErrorMessage(err, argv)}\n`);
    return 1;
  }
}
