// `baton login-link` as a user runs it (a real process) against a real running server: the link it
// prints logs a browser in once; without a server it says what to do.
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../core/service.js';
import { startLocalServer, type LocalServer } from '../core/local-server.js';
import { makeTempDir } from '../../testing/fixture-home.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

function get(url: string, cookie?: string): Promise<{ status: number; cookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: cookie ? { cookie } : {} }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }));
      })
      .on('error', reject);
  });
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('baton login-link', () => {
  const temp = makeTempDir();
  const env = { ...process.env, HOME: temp.dir, BATON_HOME: path.join(temp.dir, 'baton') };
  let core: BatonCore;
  let server: LocalServer;

  beforeAll(async () => {
    core = await createBatonCore({ dataDir: env.BATON_HOME, environment: { env: {}, platform: 'linux', home: temp.dir }, log: () => {} });
    server = await startLocalServer(core, 0);
  });
  afterAll(async () => {
    await server.close();
    await core.close();
    temp.cleanup();
  });

  it('prints a fresh one-time link from the running Baton, which logs in exactly once', async () => {
    const first = (await run(process.execPath, [bin, 'login-link', '--port', String(server.port)], { env, timeout: 60_000 })).stdout.trim();
    const second = (await run(process.execPath, [bin, 'login-link', '--port', String(server.port)], { env, timeout: 60_000 })).stdout.trim();
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/login\\?code=[\\w-]+$`));
    expect(second).not.toBe(first);
    const login = await get(first);
    expect(login.status).toBe(302);
    expect((await get(first)).status).toBe(401); // used up
    expect((await get(`${server.url}/`, login.cookie)).status).toBe(200);
    expect((await get(second)).status).toBe(302); // each link is its own
  });

  it('says how to start Baton when nothing listens on the port, and fails', async () => {
    const port = await freePort();
    const failed = await run(process.execPath, [bin, 'login-link', '--port', String(port)], { env, timeout: 60_000 }).then(
      () => null,
      (err: { code: number; stderr: string; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toContain(`No Baton is listening on 127.0.0.1:${port}. Start it with \`baton serve\``);
  });

  it('refuses to hand out links without the token', async () => {
    const res = await fetch(`${server.url}/login-link`, { method: 'POST' });
    expect(res.status).toBe(401);
  });
});
