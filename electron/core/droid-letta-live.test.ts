// Live while watching: a line Factory Droid or Letta Code appends to a session becomes searchable
// without a restart (real watcher, real index, the fixture stores).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from './service.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';

const DROID = ['.factory', 'sessions', '-home-ana-projects-demo-app', '419c8c4a-fd78-4101-91df-7725f3e228c0.jsonl'];
const LETTA = ['.letta', 'lc-local-backend', 'conversations', Buffer.from('conversation:local-conv-2').toString('base64url'), 'messages.jsonl'];

function lastId(file: string): string {
  return (JSON.parse(fs.readFileSync(file, 'utf8').trimEnd().split('\n').pop()!) as { id: string }).id;
}

describe('Droid and Letta stores while Baton watches', () => {
  let fixture: FixtureHome;
  let core: BatonCore;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir: String(fixture.env.BATON_HOME), ingest: 'inline', watch: true, log: () => {} });
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('an appended Droid prompt is found by search', async () => {
    const file = path.join(fixture.home, ...DROID);
    const line = { type: 'message', id: 'live-droid-1', parentId: lastId(file), timestamp: '2026-11-27T05:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'zanzibarquokka droid follow-up' }] } };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    await expect.poll(async () => (await core.api.search({ query: 'zanzibarquokka', limit: 5 })).map((h) => h.sessionId), { timeout: 10_000 }).toEqual(['droid:419c8c4a-fd78-4101-91df-7725f3e228c0']);
  });

  it('an appended Letta prompt is found by search', async () => {
    const file = path.join(fixture.home, ...LETTA);
    const line = { type: 'message', id: 'beef0001', parentId: lastId(file), timestamp: '2026-11-27T05:00:00.000Z', message: { id: 'ui-msg-99', role: 'user', content: [{ type: 'text', text: 'quokkazanzibar letta follow-up' }] } };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    await expect.poll(async () => (await core.api.search({ query: 'quokkazanzibar', limit: 5 })).map((h) => h.sessionId), { timeout: 10_000 }).toEqual(['letta:local-conv-2']);
  });
});
