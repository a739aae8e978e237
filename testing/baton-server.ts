/**
 * Starts a real `baton serve` on a free port with HOME pointing at a private copy of the fixture
 * stores, and reads the login link it prints. Used by the e2e fixtures and the UI benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeEnvironment } from './fixture-home.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BatonServer {
  url: string;
  loginUrl: string;
  port: number;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  home: string;
  batonHome: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startBatonServer(options: StartOptions): Promise<BatonServer> {
  if (!fs.existsSync(path.join(repoRoot, 'renderer', 'dist', 'index.html'))) {
    throw new Error('renderer/dist is missing: run `npm run build:renderer` (npm run test:e2e does it).');
  }
  const port = await freePort();
  // `options.env` replaces the environment instead of being laid over process.env: a fixture home's
  // env has the store variables removed, and spreading process.env first put them back, so a
  // CODEX_HOME, GEMINI_CLI_HOME… set where the suite runs sent the server to stores outside the home.
  const env = homeEnvironment(options.env ?? process.env, options.home, options.batonHome);
  // process.execPath is the project's Node 22 (tests run through npx); bin/baton.mjs runs the sources via tsx.
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'baton.mjs'), 'serve', '--port', String(port)], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));

  const loginUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`baton serve did not print a login URL within ${options.timeoutMs ?? 30_000} ms:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const onData = () => {
      const match = output.match(/(http:\/\/127\.0\.0\.1:\d+\/login\?\S+)/);
      if (match?.[1]) {
        cleanup();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`baton serve exited (${code}) before it was ready:\n${output}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    onData();
  });

  return {
    url: `http://127.0.0.1:${port}`,
    loginUrl,
    port,
    output: () => output,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
