// A one-shot `baton list` / `search` / `brief --last` right after an agent appended to its transcript shows the
// append: whether the command opens the index itself (a real `baton` process: the store files'
// sizes and mtimes against the units table) or asks a running Baton (a real core, watcher and HTTP
// server: /sync re-checks the stores before answering, ahead of the watcher's debounce).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/model.js';
import { createBatonCore, type BatonCore } from '../core/service.js';
import { startLocalServer, type LocalServer } from '../core/local-server.js';
import type { Environment } from '../core/paths.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { openCliApi } from './cli-api.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');
const SESSION = '3072564a-143f-4e9b-bb7e-b34365e4333b';

/** Appends one user turn to the fixture Claude session, as Claude Code writes it; returns its text and time. */
function appendUserTurn(home: string, n: number): { word: string; at: string } {
  const file = path.join(home, '.claude', 'projects', '-home-ana-scratch', `${SESSION}.jsonl`);
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!) as { uuid: string };
  const word = `freshprobe${n}x${Date.now()}`;
  const at = new Date(Date.UTC(2031, 0, n, 12)).toISOString();
  const record = {
    parentUuid: last.uuid, isSidechain: false, type: 'user', message: { role: 'user', content: `Please also check ${word} now.` },
    uuid: randomUUID(), timestamp: at, userType: 'external', cwd: '/home/ana/scratch', sessionId: SESSION, version: '2.1.330', gitBranch: 'HEAD',
  };
  fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
  return { word, at };
}

const ours = (sessions: Session[]) => sessions.find((s) => s.id === `claude:${SESSION}`)!;

describe('a list, search or brief right after an agent appended shows the append', () => {
  let fixture: FixtureHome;
  beforeAll(() => {
    fixture = makeFixtureHome();
  });
  afterAll(() => fixture.cleanup());

  it('from the command’s own index (no Baton running)', async () => {
    const env = { ...fixture.env, BATON_NO_SERVER: '1' };
    const baton = async (...args: string[]) => JSON.parse((await run(process.execPath, [bin, ...args], { env, timeout: 60_000 })).stdout) as unknown;
    const before = ours((await baton('list', '--json', '--no-redact')) as Session[]);
    for (const n of [1, 2]) {
      const { word, at } = appendUserTurn(fixture.home, n);
      const after = ours((await baton('list', '--json', '--no-redact')) as Session[]);
      expect(after.updatedAt).toBe(at);
      expect(after.userTurns).toBe(before.userTurns + n);
      const hits = (await baton('search', word, '--json')) as { sessionId: string }[];
      expect(hits.map((h) => h.sessionId)).toEqual([`claude:${SESSION}`]);
      // The append made this session the newest: `brief --last` names it and quotes the new turn.
      const brief = (await run(process.execPath, [bin, 'brief', '--last', '--no-redact'], { env, timeout: 60_000 })).stdout;
      expect(brief).toContain(`claude:${SESSION}`);
      expect(brief).toContain(word);
    }
  });

  describe('through a running Baton', () => {
    let core: BatonCore;
    let server: LocalServer;
    let environment: Environment;

    beforeAll(async () => {
      environment = { env: fixture.env, platform: process.platform, home: fixture.home };
      // Watching, as the app and `baton serve` do: the watcher reports an append only after its debounce.
      core = await createBatonCore({ environment, ingest: 'inline', log: () => undefined });
      server = await startLocalServer(core, 0);
      await core.start();
      await core.whenCurrent();
    });
    afterAll(async () => {
      await server?.close();
      await core?.close();
    });

    it('asks it, and its answer already holds the append', async () => {
      for (const n of [3, 4]) {
        const before = ours((await core.api.listSessions({ limit: 1000, offset: 0 })).sessions);
        const { word, at } = appendUserTurn(fixture.home, n);
        const cli = await openCliApi(environment);
        try {
          expect(cli.server).toBe(server.url);
          const after = ours((await cli.api.listSessions({ limit: 1000, offset: 0 })).sessions);
          expect(after.updatedAt).toBe(at);
          expect(after.userTurns).toBe(before.userTurns + 1);
          const hits = await cli.api.search({ query: word, limit: 20 });
          expect(hits.map((h) => h.sessionId)).toEqual([`claude:${SESSION}`]);
        } finally {
          await cli.close();
        }
      }
    });
  });
});
