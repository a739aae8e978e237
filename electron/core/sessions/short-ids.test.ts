// Shortest unique id prefixes: the pure rule, then every prefix checked against the real resolver
// over the fixture stores (real adapters, real index.db).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiInput } from '../../../shared/contract.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { shortestUniquePrefixes, type SessionKey } from './short-ids.js';

const key = (id: string): SessionKey => ({ id, nativeId: id.slice(id.indexOf(':') + 1) });

describe('shortestUniquePrefixes', () => {
  it('makes ids that share a long head unique (Hermes’ timestamped ids)', () => {
    const hermes = ['hermes:20261122_034252_bf13a5', 'hermes:20261122_034253_926d29', 'hermes:20261122_034809_aa01', 'hermes:20261122_034810_bb02'].map(key);
    const ids = shortestUniquePrefixes(hermes, hermes);
    expect([...ids.values()]).toEqual(['20261122_034252', '20261122_034253', '20261122_03480', '20261122_03481']);
  });

  it('is at least four characters, and the whole native id when it is a prefix of another', () => {
    const all = ['claude:abcdef', 'claude:zq', 'codex:abc', 'codex:abcdxyz'].map(key);
    expect(Object.fromEntries(shortestUniquePrefixes(all, all))).toEqual({
      'claude:abcdef': 'abcde',
      'claude:zq': 'zq', // shorter than four: only the exact native id names it
      'codex:abc': 'abc',
      'codex:abcdxyz': 'abcdx',
    });
  });

  it('counts sessions that are not listed, and falls back to the full id for a native id two agents share', () => {
    const listed = [key('claude:1234-aaaa')];
    const universe = [...listed, key('codex:1234-aaab'), key('pi:1234-aaaa')];
    expect(shortestUniquePrefixes(listed, universe).get('claude:1234-aaaa')).toBe('claude:1234-aaaa');
    expect(shortestUniquePrefixes([universe[1]!], universe).get('codex:1234-aaab')).toBe('1234-aaab');
  });
});

describe('shortest unique prefixes over the fixture stores', () => {
  let fixture: FixtureHome;
  let core: BatonCore;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await createBatonCore({
      environment: { env: fixture.env, platform: process.platform, home: fixture.home },
      dataDir: String(fixture.env.BATON_HOME),
      ingest: 'inline',
      watch: false,
      log: () => {},
    });
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('each prefix is accepted as a <ref> and names its own session, and none is longer than needed', async () => {
    const sessions = (await core.api.listSessions(parseApiInput('listSessions', { limit: 1000 }))).sessions;
    expect(sessions.length).toBeGreaterThan(10);
    const prefixes = shortestUniquePrefixes(sessions, sessions);
    expect(new Set(prefixes.values()).size).toBe(sessions.length);
    for (const s of sessions) {
      const prefix = prefixes.get(s.id)!;
      expect(core.resolveSession(prefix)).toBe(s.id);
      // One character less (when still a prefix the resolver reads as one) names another session too.
      if (prefix.length > 4 && prefix !== s.nativeId) {
        const shorter = prefix.slice(0, -1);
        // …or is exactly another session's id (a Cline subagent's id is its parent's plus `__agent_…`).
        const exact = sessions.find((o) => o.nativeId === shorter);
        if (exact) expect(core.resolveSession(shorter)).toBe(exact.id);
        else expect(() => core.resolveSession(shorter)).toThrow(/matches \d+ sessions/);
      }
    }
    // The four Hermes sessions all start 20261122_0342…: cut at 13 they were one id.
    const hermes = sessions.filter((s) => s.agent === 'hermes').map((s) => prefixes.get(s.id));
    expect(hermes.length).toBeGreaterThan(1);
    expect(new Set(hermes).size).toBe(hermes.length);
  });
});
