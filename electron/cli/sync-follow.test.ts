// A CLI command meets a running Baton that is in the middle of a pass: it follows that pass (or,
// during the first one, may read what is indexed so far) and never indexes beside it. A real
// /sync route on a real HTTP server on 127.0.0.1, announced by server.json, asked over loopback.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexProgress } from '../../shared/api-types.js';
import type { Environment } from '../core/paths.js';
import { writeServerFile } from '../core/server/server-file.js';
import { createSyncRoute, type SyncBusy } from '../core/server/sync-route.js';
import { openServerApi, syncViaServer } from './cli-api.js';

const idle: IndexProgress = { phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, currentAt: null, error: null };

describe('a CLI command and a running Baton that is indexing', () => {
  let dir: string;
  let environment: Environment;
  let server: http.Server;
  /** What the route answers next: each POST takes the next state, the last one stays. */
  let states: IndexProgress[];
  let polls: number;
  let catchUps: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-sync-follow-'));
    environment = { env: { BATON_HOME: dir }, platform: process.platform, home: dir };
    polls = 0;
    catchUps = 0;
    const route = createSyncRoute({
      progress: () => states[Math.min(polls, states.length - 1)]!,
      syncNow: async () => {
        catchUps++;
        return { unitsRead: 1, bytesRead: 100 };
      },
    });
    server = http.createServer((req, res) => {
      // Each request reads the state once, then moves on to the next.
      void route.handle(req, res, Buffer.alloc(0)).finally(() => polls++);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    writeServerFile(dir, { pid: process.pid, port, url: `http://127.0.0.1:${port}`, version: 'test', startedAt: new Date().toISOString() });
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('`baton index` follows a pass of a Baton already current, then has it catch up', async () => {
    const later = { ...idle, phase: 'indexing' as const, currentAt: '2026-11-27T10:00:00.000Z', filesTotal: 4, bytesTotal: 4000 };
    states = [
      { ...later, filesDone: 1, bytesDone: 1000 },
      { ...later, filesDone: 3, bytesDone: 3000 },
      { ...later, phase: 'watching', filesDone: 4, bytesDone: 4000 },
    ];
    const seen: SyncBusy[] = [];
    const synced = await syncViaServer(environment, (busy) => seen.push(busy));
    expect(seen.map((b) => [b.phase, b.firstPassDone, b.files.done, b.files.total, b.bytes.done])).toEqual([
      ['indexing', true, 1, 4, 1000],
      ['indexing', true, 3, 4, 3000],
    ]);
    expect(synced).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), read: { files: 1, bytes: 100 }, followed: seen[1] });
    expect(catchUps).toBe(1);
  });

  it('waits for the first pass when told to, and reads the partial index at once when not', async () => {
    const first = { ...idle, phase: 'indexing' as const, filesTotal: 10, bytesTotal: 2000, filesDone: 5, bytesDone: 500 };
    states = [first, first, { ...first, phase: 'watching', currentAt: '2026-11-27T10:00:00.000Z' }];
    const warnings: string[] = [];
    const partial = await openServerApi(environment, { firstPass: 'partial', warn: (line) => warnings.push(line) });
    expect(partial?.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(polls).toBe(1);
    expect(catchUps).toBe(0);
    expect(warnings).toEqual([`baton: the running Baton (${partial!.server}) is still building its index (5/10 files read); this answer holds only what it has indexed so far\n`]);

    let waited = 0;
    const waiting = await openServerApi(environment, { firstPass: 'wait', onWait: () => waited++, warn: (line) => warnings.push(line) });
    expect(waiting?.server).toBe(partial!.server);
    expect(waited).toBe(1);
    expect(catchUps).toBe(1);
    expect(warnings).toHaveLength(1);
  });

  it('indexes itself (null) when the running Baton’s ingest failed or it answers nonsense', async () => {
    states = [{ ...idle, phase: 'error', error: 'worker died' }];
    expect(await syncViaServer(environment)).toBeNull();
    expect(await openServerApi(environment, { firstPass: 'wait' })).toBeNull();
    expect(catchUps).toBe(0);

    // No counts; then counts that are not numbers (they would reach the terminal as they are).
    let body = '{"phase":"indexing"}';
    server.removeAllListeners('request');
    server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(body);
    });
    expect(await syncViaServer(environment)).toBeNull();
    body = JSON.stringify({ phase: 'indexing', firstPassDone: true, files: { done: '\u001b[2J', total: 3 }, bytes: { done: 0, total: 10 } });
    let waited = 0;
    expect(await syncViaServer(environment, () => waited++)).toBeNull();
    body = JSON.stringify({ phase: 'indexing', firstPassDone: true, files: { done: 1, total: 3 } });
    expect(await syncViaServer(environment, () => waited++)).toBeNull();
    expect(waited).toBe(0);
  });

  it('gives up on a pass whose progress stops moving (that Baton is stuck), and not on one that moves', async () => {
    const stuck = { ...idle, phase: 'indexing' as const, currentAt: '2026-11-27T10:00:00.000Z', filesTotal: 3, filesDone: 1, bytesTotal: 30, bytesDone: 10 };
    states = [stuck];
    expect(await openServerApi(environment, { firstPass: 'wait', stallMs: 600 })).toBeNull();
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(catchUps).toBe(0);

    // Moving, a file per poll (250 ms apart), for longer than stallMs in all: followed to the end.
    polls = 0;
    states = [1, 2, 3, 4, 5, 6].map((n) => ({ ...stuck, filesTotal: 6, filesDone: n, bytesDone: n * 10 }));
    states.push({ ...stuck, phase: 'watching' });
    const started = Date.now();
    const followed = await openServerApi(environment, { firstPass: 'wait', stallMs: 1000 });
    expect(followed).not.toBeNull();
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(catchUps).toBe(1);
  });
});
