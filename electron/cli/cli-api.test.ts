// One-shot CLI reads ask a running Baton (real core, real HTTP server on 127.0.0.1) when there is one.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../core/service.js';
import { startLocalServer, type LocalServer } from '../core/local-server.js';
import { readServerFile, serverFilePath, writeServerFile } from '../core/server/server-file.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import type { Environment } from '../core/paths.js';
import { openCliApi } from './cli-api.js';
import { redactForOutput } from '../core/redaction/redact.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

/** Appends a user prompt saying `text` to a Claude transcript of `home` (a copy of its last user line). */
function appendClaudePrompt(home: string, text: string): void {
  const dir = path.join(home, '.claude', 'projects', '-home-ana-scratch');
  const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
  const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const user = records.findLast((r) => r.type === 'user' && typeof (r.message as { content?: unknown }).content === 'string')!;
  const last = records.findLast((r) => typeof r.uuid === 'string')!;
  const prompt = { ...user, uuid: randomUUID(), parentUuid: last.uuid, timestamp: new Date().toISOString(), message: { role: 'user', content: text } };
  fs.appendFileSync(file, `${JSON.stringify(prompt)}\n`);
}

describe('CLI reads through a running Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let server: LocalServer;
  let environment: Environment;
  let dataDir: string;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    dataDir = fixture.env.BATON_HOME!;
    environment = { env: fixture.env, platform: process.platform, home: fixture.home };
    core = await createBatonCore({ environment, dataDir, ingest: 'inline', log: () => undefined });
    server = await startLocalServer(core, 0);
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await server?.close();
    await core?.close();
    fixture.cleanup();
  });

  it('announces itself in server.json (owner-only) and the CLI answers from it, same as the index', async () => {
    const info = readServerFile(dataDir);
    expect(info).toMatchObject({ pid: process.pid, port: server.port, url: server.url });
    expect(fs.statSync(serverFilePath(dataDir)).mode & 0o777).toBe(0o600);

    const cli = await openCliApi(environment);
    try {
      expect(cli.server).toBe(server.url);
      const filters = { limit: 1000, offset: 0 } as const;
      const viaServer = await cli.api.listSessions(filters);
      expect(viaServer.total).toBeGreaterThan(0);
      // The same as the index, as the token gets it: redacted (the fixtures hold GitHub tokens).
      expect(viaServer).toEqual(await redactForOutput(await core.api.listSessions(filters)));
      const query = { query: 'coffee', limit: 20 } as const;
      expect(await cli.api.search(query)).toEqual(await redactForOutput(await core.api.search(query)));
    } finally {
      await cli.close();
    }
  });

  it('renders a brief through it (its tokenizer is warm), as its own handoff service does, redacted', async () => {
    const cli = await openCliApi(environment);
    try {
      expect(cli.server).toBe(server.url);
      const session = (await cli.api.listSessions({ limit: 1, offset: 0 })).sessions[0]!.id;
      const request = { session, format: 'md', redact: true } as const;
      const remote = await cli.api.generateBrief(request);
      const own = await redactForOutput(await core.api.generateBrief(request));
      expect(remote.text.length).toBeGreaterThan(100);
      expect({ text: remote.text, tokens: remote.tokens, budget: remote.budget }).toEqual({ text: own.text, tokens: own.tokens, budget: own.budget });
    } finally {
      await cli.close();
    }
  });

  it('surfaces the server’s own error message for a bad request', async () => {
    const cli = await openCliApi(environment);
    try {
      expect(cli.server).toBe(server.url);
      await expect(cli.api.search({ query: 'x', limit: -5 } as never)).rejects.toThrow(/limit/i);
    } finally {
      await cli.close();
    }
  });

  it('`baton index` has the running Baton catch up (its index has one writer) and reports what it read', async () => {
    appendClaudePrompt(fixture.home, 'quokkaparade appended while Baton runs');
    const { stdout } = await run(process.execPath, [bin, 'index'], { env: fixture.env, timeout: 60_000 });
    const url = server.url.replace(/[.]/g, '\\.');
    // One changed file, or none when the running Baton's watcher read the append first.
    expect(stdout).toMatch(new RegExp(`^\\d+ sessions .* from [01] changed file\\(s\\) in [\\d.]+ s by the running Baton \\(${url}\\); index [\\d.]+ MB at `));
    // Read by the running Baton, so its own answers hold the append when the command returns.
    const hits = await core.api.search({ query: 'quokkaparade', limit: 5 });
    expect(hits.map((h) => h.snippet)).toEqual([expect.stringContaining('[[quokkaparade]]')]);
  });

  it('ignores a server.json of a process that is gone, or one naming a non-loopback host', () => {
    const other = path.join(fixture.home, 'other-data');
    writeServerFile(other, { pid: 2 ** 22 + 12345, port: 1, url: 'http://127.0.0.1:1', version: '0', startedAt: '' });
    expect(readServerFile(other)).toBeNull();
    writeServerFile(other, { pid: process.pid, port: 80, url: 'http://evil.example:80', version: '0', startedAt: '' });
    expect(readServerFile(other)).toBeNull();
    fs.writeFileSync(serverFilePath(other), '{ not json');
    expect(readServerFile(other)).toBeNull();
  });

  it('falls back to its own index when told to, and once the server stopped (server.json removed)', async () => {
    const own = await openCliApi({ ...environment, env: { ...environment.env, BATON_NO_SERVER: '1' } });
    try {
      expect(own.server).toBeNull();
      expect((await own.api.listSessions({ limit: 5, offset: 0 })).sessions.length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
    await server.close();
    expect(fs.existsSync(serverFilePath(dataDir))).toBe(false);
    const after = await openCliApi(environment);
    try {
      expect(after.server).toBeNull();
    } finally {
      await after.close();
    }
  });
});

describe('CLI commands while the running Baton has not finished its first pass', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let server: LocalServer;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    const environment = { env: fixture.env, platform: process.platform, home: fixture.home };
    core = await createBatonCore({ environment, dataDir: fixture.env.BATON_HOME!, ingest: 'inline', log: () => undefined });
    // Serving, but its first pass not started yet (as for a moment after launch): the test starts it.
    server = await startLocalServer(core, 0);
  });
  afterAll(async () => {
    await server?.close();
    await core?.close();
    fixture.cleanup();
  });

  /** A real `baton …` process; resolves with its output once it exits. */
  function baton(args: string[]): { stderr: () => string; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
    const child = spawn(process.execPath, [bin, ...args], { env: fixture.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    return { stderr: () => stderr, done };
  }

  it('`baton index`, `brief --last` and `list` wait for that pass (nothing to read yet), then answer from it', async () => {
    const index = baton(['index']);
    const brief = baton(['brief', '--last']);
    const list = baton(['list', '--json']);
    // index and brief say they wait (a 503 each) before the pass starts; list waits quietly.
    await expect.poll(() => index.stderr() + brief.stderr(), { timeout: 30_000, interval: 100 }).toMatch(/waiting for the running Baton to finish its first index[^]*waiting for the running Baton/);
    await core.start();
    await core.whenCurrent();
    const sessions = (await core.api.listSessions({ limit: 1, offset: 0 })).total;
    expect(sessions).toBeGreaterThan(50);
    const url = server.url.replace(/[.]/g, '\\.');
    const indexed = await index.done;
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toMatch(new RegExp(`^[1-9]\\d* sessions .* from \\d+ changed file\\(s\\) in [\\d.]+ s by the running Baton \\(${url}\\); index `));
    const briefed = await brief.done;
    expect(briefed.code).toBe(0);
    const latest = (await core.api.listSessions({ limit: 1, offset: 0 })).sessions[0]!;
    expect(briefed.stdout.length).toBeGreaterThan(200);
    expect(briefed.stdout).toContain(latest.nativeId.slice(0, 8));
    // Not indexed beside it, and not an answer from before the pass: every session is listed.
    const listed = await list.done;
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(sessions);
    expect(listed.stderr).not.toContain('still building');
  });
});
