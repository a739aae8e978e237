/**
 * End to end over a real OpenSSH: an sshd on a loopback port plays the remote machine, whose
 * `baton` (this checkout, HOME at a copy of the fixture stores) serves its sessions; the laptop side
 * is a LiveIndex whose only sources are that machine's adapters.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../../shared/model.js';
import { MachineSettingsSchema, type MachineSettings } from '../../../shared/settings.js';
import { LiveIndex } from '../index/live-index.js';
import { SessionIndex } from '../index/session-index.js';
import { createAdapters, type SourcesConfig } from '../sources/registry.js';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../testing/fixture-home.js';
import { startSshdHost, SSHD, type SshdHost } from '../testing/sshd-host.js';
import { RemoteHost } from './remote-host.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LABEL = 'devbox';

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(process.platform !== 'linux' || !fs.existsSync(SSHD))('sessions on another machine over OpenSSH', () => {
  let remoteHome: FixtureHome;
  let laptop: { dir: string; cleanup(): void };
  let sshDir: { dir: string; cleanup(): void };
  let sshd: SshdHost;
  let machine: MachineSettings;
  let live: LiveIndex;
  let index: SessionIndex;
  let config: SourcesConfig;

  beforeAll(async () => {
    remoteHome = makeFixtureHome();
    laptop = makeTempDir('baton-laptop-');
    sshDir = makeTempDir('baton-sshd-');
    sshd = await startSshdHost(sshDir.dir);
    // What `baton` is on the host: this checkout with its Node, HOME at the fixture copy.
    const command = `env HOME=${remoteHome.home} BATON_HOME=${remoteHome.env.BATON_HOME} ${process.execPath} ${path.join(repo, 'bin', 'baton.mjs')}`;
    machine = MachineSettingsSchema.parse({ destination: `root@127.0.0.1:${sshd.port}`, label: LABEL, command, sshArgs: sshd.sshArgs() });
    const none = Object.fromEntries(AGENTS.map((a) => [a, { enabled: false, path: null }])) as SourcesConfig['agents'];
    config = { agents: none, machines: [machine], remote: { controlDir: path.join(sshDir.dir, 'cm'), retryMs: 300 } };
    live = new LiveIndex({ dataDir: laptop.dir, adapters: createAdapters(config, { env: {}, platform: 'linux', home: laptop.dir }), reconcileMs: 3_600_000 });
    await live.start();
    index = new SessionIndex(laptop.dir);
  }, 60_000);

  afterAll(async () => {
    index?.close();
    await live?.close();
    try {
      // The shared connection ssh left running for reuse (ControlPersist).
      execFileSync('ssh', ['-F', sshd.sshConfig, '-o', `ControlPath=${path.join(sshDir.dir, 'cm', '%C')}`, '-O', 'exit', '-p', String(sshd.port), 'root@127.0.0.1'], { stdio: 'ignore' });
    } catch {
      // none left
    }
    await sshd?.cleanup();
    laptop?.cleanup();
    sshDir?.cleanup();
    remoteHome?.cleanup();
  });

  it("lists the host's sessions host-qualified, with the fixtures' fields", () => {
    // Agents this Baton has a reader for (the host runs the same one).
    const readable = new Set(live.sync.adapters.map((a) => a.agent));
    const expected = expectedSessions().filter((s) => readable.has(s.agent));
    expect(readable.has('claude')).toBe(true);
    const { sessions, total } = index.listSessions({ limit: 1000 });
    expect(total).toBe(expected.length);
    for (const want of expected) {
      const got = sessions.find((s) => s.id === `${LABEL}/${want.agent}:${want.id}`);
      expect(got, `${want.agent}:${want.id}`).toMatchObject({
        agent: want.agent,
        nativeId: want.id,
        cwd: want.cwd,
        gitBranch: want.gitBranch,
        firstPrompt: want.firstPrompt,
        userTurns: want.userTurns,
        parentId: want.parentId === null ? null : `${LABEL}/${want.parentId}`,
      });
      expect(got!.sourcePath.startsWith(`ssh://${LABEL}/`)).toBe(true);
    }
    const status = live.sync.sourceStatus();
    expect(status.every((s) => s.host === LABEL && s.state === 'ok')).toBe(true);
  });

  it('finds a rare token from a host session', () => {
    const hits = index.search('coffee', { limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.sessionId.startsWith(`${LABEL}/`))).toBe(true);
  });

  const claudeSession = () => expectedSessions().find((s) => s.agent === 'claude' && !s.isSubagent)!;
  const appendTurn = (token: string) => {
    const want = claudeSession();
    const file = path.join(remoteHome.home, '.claude', want.files.find((f) => f.endsWith(`${want.id}.jsonl`))!.replace(/^claude\/\.claude\//, ''));
    const line = {
      type: 'user',
      sessionId: want.id,
      uuid: `0000${token}`.slice(-36),
      timestamp: new Date().toISOString(),
      cwd: want.cwd,
      message: { role: 'user', content: `please remember ${token}` },
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  const messageCount = () => index.getSession(`${LABEL}/claude:${claudeSession().id}`)!.messageCount;

  it('an append on the host is searchable on the laptop within 5 s (pushed by the host)', async () => {
    const before = messageCount();
    appendTurn('zanzibarquokka');
    await until('append searchable', () => index.search('zanzibarquokka').length > 0, 5000);
    expect(messageCount()).toBe(before + 1);
  });

  it('keeps the data of an offline host, then resumes from its cursors without duplicates', async () => {
    const before = index.listSessions({ limit: 1000 }).total;
    const messages = messageCount();
    await sshd.stop();
    await live.sync.syncAll();
    const status = live.sync.sourceStatus();
    expect(status[0]!.lastError).toMatch(/^host offline since \d{4}-/);
    expect(index.listSessions({ limit: 1000 }).total).toBe(before);
    expect(index.listSessions({ limit: 1000 }).sessions.some((s) => s.sourceGone)).toBe(false);

    appendTurn('offlinewombat');
    await sshd.start();
    // The retry reconnects and the host's return triggers a sync from the saved cursors.
    await until('resumed after reconnect', () => index.search('offlinewombat').length > 0, 15_000);
    expect(messageCount()).toBe(messages + 1);
    await live.sync.syncAll({ force: true });
    expect(messageCount()).toBe(messages + 1);
    expect(index.search('zanzibarquokka')).toHaveLength(1);
    expect(live.sync.sourceStatus().every((s) => s.state === 'ok')).toBe(true);
  }, 30_000);

  it('refuses a host whose key does not match known_hosts, saying so', async () => {
    const host = new RemoteHost({ ...machine, sshArgs: sshd.sshArgs(sshd.wrongKeyConfig) }, { controlDir: path.join(sshDir.dir, 'cm-wrong') });
    try {
      await expect(host.connect()).rejects.toThrow(/host key verification failed.*checks host keys as OpenSSH does/);
      expect(host.offlineSince).not.toBeNull();
    } finally {
      host.close();
    }
  });
});
