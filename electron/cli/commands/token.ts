import type { Command } from 'commander';
import { TokenStore } from '../../core/auth/token-store.js';
import { batonDataDir, currentEnvironment } from '../../core/paths.js';

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('Print the access token for the HTTP API and the MCP endpoint.')
    .option('--regenerate', 'replace the token (the old one stops working)')
    .action((opts: { regenerate?: boolean }) => {
      const store = new TokenStore(batonDataDir(currentEnvironment()));
      process.stdout.write(`${opts.regenerate ? store.regenerate() : store.get()}\n`);
    });
}
