import type { Command } from 'commander';
import { batonDataDir, currentEnvironment } from '../../core/paths.js';
import { parsePort } from '../options.js';

export function registerLoginLink(program: Command): void {
  program
    .command('login-link')
    .description('Print a fresh one-time link that logs this browser in to the running Baton UI.')
    .option('-p, --port <port>', 'the port Baton serves on (default: the "port" setting, 8765)', parsePort)
    .action(async (opts: { port?: number }) => {
      const dataDir = batonDataDir(currentEnvironment());
      const [{ SettingsStore }, { uiSessionStore }, { LoginLinkError, requestLoginLink }] = await Promise.all([
        import('../../core/settings/settings-store.js'),
        import('../../core/auth/ui-session.js'),
        import('../../core/server/login-link.js'),
      ]);
      const port = opts.port ?? new SettingsStore(dataDir).get().port;
      try {
        process.stdout.write(`${await requestLoginLink(port, uiSessionStore(dataDir).get())}\n`);
      } catch (err) {
        if (!(err instanceof LoginLinkError)) throw err;
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
