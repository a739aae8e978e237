import type { Command } from 'commander';
import { parsePort } from '../options.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run Baton headless: index, MCP endpoint and the UI over HTTP on 127.0.0.1.')
    .option('-p, --port <port>', 'port to listen on (default: the "port" setting, 8765)', parsePort)
    .action(async (opts: { port?: number }) => {
      const [{ createBatonCore }, { startLocalServer }] = await Promise.all([import('../../core/service.js'), import('../../core/local-server.js')]);
      const core = await createBatonCore();
      const server = await startLocalServer(core, opts.port ?? core.settings.get().port).catch(async (err: unknown) => {
        await core.close();
        throw err;
      });
      process.stdout.write(`Baton listening on ${server.url}\n`);
      process.stdout.write(`Open the UI (one-time login link): ${server.newLoginUrl()}\n`);
      process.stdout.write('Another browser, or the link used? `baton login-link` prints a fresh one.\n');
      process.stdout.write(`MCP endpoint: ${server.url}/mcp (token: \`baton token\`)\n`);
      await core.start();
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
      await core.close();
    });
}
