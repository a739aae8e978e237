import type { Command } from 'commander';
import { batonDataDir, currentEnvironment } from '../../core/paths.js';

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('Print the access token for the HTTP API and the MCP endpoint.')
    .option('--regenerate', 'replace the token (the old one stops working)')
    .action(async (opts: { regenerate?: boolean }) => {
      // Loaded when the command runs: `baton --help` must not pay for node:crypto.
      const { TokenStore } = await import('../../core/auth/token-store.js');
      const store = new TokenStore(batonDataDir(currentEnvironment()));
      process.stdout.write(`${opts.regenerate ? store.regenerate() : store.get()}\n`);
    });
}
