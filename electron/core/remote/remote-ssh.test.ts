/**
 * End to end over a real OpenSSH: an sshd on a loopback port plays the remote machine, whose
 * `baton` (this checkout, HOME at a copy of the fixture stores) serves its sessions; the laptop side
 * is a IndexWriteLoop whose only sources are that machine's adapters.
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../../shared/model.js';
import { MachineSettingsSchema, type MachineSettings } from '../../../shared/settings.js';
import { IndexWriteLoop } from '../ingest/index-write-loop.js';
import { IngestRunner } from '../ingest/ingest-runner.js';
import { SessionIndex } from '../index/session-index.js';
import { createAdapters, type SourcesConfig } from '../ingest/registry.js';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../../../testing/fixture-home.js';
import { environmentOf } from '../../../testing/index-support.js';
import { freePort, startSshdHost, type SshdHost } from '../../../testing/sshd-host.js';
import { RemoteHost } from './remote-host.js';
import { readServerFile } from '../server/server-file.js';
import { TokenStore } from '../auth/token-store.js';
import { RemoteMachines } from './remote-machines.js';
import { remoteOpenCommand } from './remote-open.js';
import { hostProbe, openInAgent } from '../terminal/open-in-agent.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LABEL = 'devbox';

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A real OpenSSH server plays the remote host (.ci/run installs openssh-server): without one this fails.
describe('sessions on another machine over OpenSSH', () => {
  let remoteHome: FixtureHome;
  /** The laptop's own stores: the same fixtures, so every session exists once locally and once on the host. */
  let laptopHome: FixtureHome;
  let laptop: { dir: string; cleanup(): void };
  let sshDir: { dir: string; cleanup(): void };
  let sshd: SshdHost;
  let machine: MachineSettings;
  let live: IndexWriteLoop;
  let index: SessionIndex;
  let config: SourcesConfig;

  beforeAll(async () => {
    remoteHome = makeFixtureHome();
    laptopHome = makeFixtureHome();
    laptop = makeTempDir('baton-laptop-');
    sshDir = makeTempDir('baton-sshd-');
    // The host's sessions get its own HOME, and a PATH whose `claude` is a stand-in recording how it was started.
    const bin = path.join(sshDir.dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\nprintf '%s\\0' "$(pwd)" "$@" > ${path.join(sshDir.dir, 'agent-ran')}\n`, { mode: 0o755 });
    sshd = await startSshdHost(sshDir.dir, { env: { HOME: remoteHome.home, PATH: `${bin}:/usr/bin:/bin` } });
    // What `baton` is on the host: this checkout with its Node, HOME at the fixture copy.
    const command = `env HOME=${remoteHome.home} BATON_HOME=${remoteHome.env.BATON_HOME} ${process.execPath} ${path.join(repo, 'bin', 'baton.mjs')}`;
    machine = MachineSettingsSchema.parse({ destination: `root@127.0.0.1:${sshd.port}`, label: LABEL, command, sshArgs: sshd.sshArgs() });
    const all = Object.fromEntries(AGENTS.map((a) => [a, { enabled: true, path: null }])) as SourcesConfig['agents'];
    config = { agents: all, machines: [machine], remote: { controlDir: path.join(sshDir.dir, 'cm'), retryMs: 300 } };
    live = new IndexWriteLoop({ dataDir: laptop.dir, adapters: createAdapters(config, environmentOf(laptopHome.env)), reconcileMs: 3_600_000 });
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
    laptopHome?.cleanup();
  });

  /** Every fixture session of every agent of the shared list: a host serves them all. */
  const allExpected = () => {
    const expected = expectedSessions();
    for (const agent of AGENTS) expect(expected.filter((s) => s.agent === agent).length, `expected.json has no ${agent} session`).toBeGreaterThan(0);
    return expected;
  };

  it("lists the host's sessions host-qualified, with the fixtures' fields, beside the laptop's own", () => {
    const expected = allExpected();
    const { sessions, total } = index.listSessions({ limit: 1000 });
    expect(total).toBe(2 * expected.length);
    expect(sessions.filter((s) => s.id.startsWith(`${LABEL}/`))).toHaveLength(expected.length);
    for (const want of expected) {
      const got = sessions.find((s) => s.id === `${LABEL}/${want.agent}:${want.id}`);
      expect(got, `${want.agent}:${want.id}`).toMatchObject({
        agent: want.agent,
        nativeId: want.id,
        cwd: want.cwd,
        gitBranch: want.gitBranch,
        firstPrompt: want.firstPrompt,
        userTurns: want.userTurns,
        // expected.json names a parent by its native id (pi) or by Baton's id.
        parentId: want.parentId === null ? null : `${LABEL}/${want.parentId.includes(':') ? want.parentId : `${want.agent}:${want.parentId}`}`,
      });
      expect(got!.sourcePath.startsWith(`ssh://${LABEL}/`)).toBe(true);
    }
    const status = live.sync.sourceStatus().filter((s) => s.host);
    expect(status.map((s) => s.agent).sort()).toEqual([...AGENTS].sort());
    for (const agent of AGENTS) expect(index.storeSummary(agent, LABEL).sessions, agent).toBe(expected.filter((s) => s.agent === agent).length);
    expect(status.every((s) => s.host === LABEL && s.state === 'ok')).toBe(true);
    const claudeCount = expected.filter((s) => s.agent === 'claude').length;
    expect([index.storeSummary('claude', LABEL).sessions, index.storeSummary('claude', null).sessions]).toEqual([claudeCount, claudeCount]);
    // A host-qualified id is a session reference like any other.
    const want = expected.find((s) => s.agent === 'codex')!;
    expect(index.resolveSessionRef(`${LABEL}/codex:${want.id}`)).toEqual({ status: 'found', sessionId: `${LABEL}/codex:${want.id}` });
  });

  it('a laptop with no agent store of its own gets every agent of the host (the host says what it reads)', async () => {
    const none = Object.fromEntries(AGENTS.map((a) => [a, { enabled: false, path: null }])) as SourcesConfig['agents'];
    const dataDir = path.join(laptop.dir, 'remote-only');
    const remoteOnly = new IndexWriteLoop({ dataDir, adapters: createAdapters({ ...config, agents: none }, environmentOf(laptopHome.env)), reconcileMs: 3_600_000 });
    await remoteOnly.start();
    const own = new SessionIndex(dataDir);
    try {
      const expected = allExpected();
      const ids = own.listSessions({ limit: 1000 }).sessions.map((s) => s.id).sort();
      expect(ids).toEqual(expected.map((s) => `${LABEL}/${s.agent}:${s.id}`).sort());
      for (const agent of AGENTS) expect(own.storeSummary(agent, LABEL).sessions, agent).toBe(expected.filter((s) => s.agent === agent).length);
    } finally {
      own.close();
      await remoteOnly.close();
    }
  }, 60_000);

  it('a sync of either side never marks the other one gone', async () => {
    await live.sync.syncAll({ force: true });
    expect(index.listSessions({ limit: 1000 }).sessions.filter((s) => s.sourceGone)).toEqual([]);
  });

  it('finds a rare token from a host session', () => {
    const hits = index.search('coffee', { limit: 50 });
    const remote = hits.filter((h) => h.sessionId.startsWith(`${LABEL}/`));
    expect(remote.length).toBeGreaterThan(0);
    expect(remote.length).toBe(hits.length - remote.length); // the laptop's copy matches as often
  });

  it("finds every agent's own words in its host sessions with `agent:`", () => {
    for (const agent of AGENTS) {
      const session = expectedSessions().find((s) => s.agent === agent && s.firstPrompt && /[a-z]{5,}/i.test(s.firstPrompt))!;
      const word = session.firstPrompt!.match(/[a-z]{5,}/gi)!.sort((a, b) => b.length - a.length)[0]!;
      const hits = index.search(`agent:${agent} ${word}`, { limit: 200 }).map((h) => h.sessionId);
      expect(hits, `${agent}: ${word}`).toContain(`${LABEL}/${agent}:${session.id}`);
      expect(hits.every((id) => id.includes(`${agent}:`)), agent).toBe(true);
    }
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
    expect(index.search('zanzibarquokka')[0]!.sessionId).toBe(`${LABEL}/claude:${claudeSession().id}`);
    expect(messageCount()).toBe(before + 1);
  });

  it("a new agent's change on the host reaches the laptop: a line appended to a Droid transcript, a rewritten Continue document", async () => {
    const droid = expectedSessions().find((s) => s.agent === 'droid' && !s.isSubagent)!;
    const droidFile = path.join(remoteHome.home, droid.files.find((f) => f.endsWith(`${droid.id}.jsonl`))!.replace(/^droid\//, ''));
    const line = { type: 'message', id: 'baton-remote-1', parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: 'remember quetzalmarmot' }] } };
    fs.appendFileSync(droidFile, `${JSON.stringify(line)}\n`);

    const cont = expectedSessions().find((s) => s.agent === 'continue')!;
    const contFile = path.join(remoteHome.home, '.continue', 'sessions', `${cont.id}.json`);
    const doc = JSON.parse(fs.readFileSync(contFile, 'utf8')) as { history: unknown[] };
    doc.history.push({ message: { role: 'user', content: 'remember tapirnebula' }, contextItems: [] });
    // Rewritten whole, as cn does after each turn.
    fs.writeFileSync(`${contFile}.tmp`, JSON.stringify(doc));
    fs.renameSync(`${contFile}.tmp`, contFile);

    await until('droid append searchable', () => index.search('quetzalmarmot').length > 0, 5000);
    expect(index.search('quetzalmarmot').map((h) => h.sessionId)).toEqual([`${LABEL}/droid:${droid.id}`]);
    await until('continue rewrite searchable', () => index.search('tapirnebula').length > 0, 5000);
    expect(index.search('tapirnebula').map((h) => h.sessionId)).toEqual([`${LABEL}/continue:${cont.id}`]);
  });

  it('keeps the data of an offline host, then resumes from its cursors without duplicates', async () => {
    const before = index.listSessions({ limit: 1000 }).total;
    const messages = messageCount();
    await sshd.stop();
    await live.sync.syncAll();
    const status = live.sync.sourceStatus().filter((s) => s.host);
    expect(status.every((s) => s.state === 'unreadable' && /^host offline since \d{4}-/.test(s.lastError ?? ''))).toBe(true);
    expect(live.sync.sourceStatus().filter((s) => !s.host).every((s) => s.state === 'ok')).toBe(true);
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

  it('`baton remote add|list|test|remove` manage machines and report what the host has', async () => {
    const run = promisify(execFile);
    const env = { ...laptopHome.env, BATON_HOME: path.join(laptop.dir, 'cli-baton') };
    const baton = (...args: string[]) => run(process.execPath, [path.join(repo, 'bin', 'baton.mjs'), ...args], { env, timeout: 60_000 });
    await baton('remote', 'add', machine.destination, '--label', LABEL, `--command=${machine.command}`, `--ssh-arg=-F`, `--ssh-arg=${sshd.sshConfig}`);
    const listed = (await baton('remote', 'list')).stdout;
    expect(listed).toContain(`${LABEL}\t${machine.destination}\tenabled\tall agents`);

    const tested = (await baton('remote', 'test', LABEL)).stdout;
    expect(tested).toMatch(new RegExp(`^${LABEL}: reachable; Baton \\d+\\.\\d+\\.\\d+`));
    for (const agent of AGENTS) expect(tested).toContain(`  ${agent}: ${allExpected().filter((s) => s.agent === agent).length} sessions\n`);

    // The CLI's own index reads the host over ssh too: its sessions are listed and searchable.
    const listedSessions = JSON.parse((await baton('list', '--json')).stdout) as { id: string; sourcePath: string }[];
    const fromHost = listedSessions.filter((s) => s.id.startsWith(`${LABEL}/`));
    expect(fromHost.length).toBe(listedSessions.length / 2);
    expect(fromHost.every((s) => s.sourcePath.startsWith(`ssh://${LABEL}/`))).toBe(true);
    expect((await baton('list', '--agent', 'claude', '--limit', '100')).stdout).toContain(`${LABEL}/claude `);
    const found = JSON.parse((await baton('search', 'zanzibarquokka', '--json')).stdout) as { sessionId: string }[];
    expect(found.map((h) => h.sessionId)).toEqual([`${LABEL}/claude:${claudeSession().id}`]);

    await baton('remote', 'remove', LABEL);
    expect((await baton('remote', 'list')).stdout).not.toContain(`${LABEL}\t`);
  }, 60_000);

  it('`baton remote add` while `baton serve` runs: applied live, the host\'s sessions join its index', async () => {
    const env = { ...laptopHome.env, BATON_HOME: path.join(laptop.dir, 'serve-baton') };
    const bin = path.join(repo, 'bin', 'baton.mjs');
    const serve = spawn(process.execPath, [bin, 'serve', '--port', String(await freePort())], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    serve.stdout.on('data', (d: Buffer) => (output += d.toString()));
    serve.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const baton = (...args: string[]) => promisify(execFile)(process.execPath, [bin, ...args], { env, timeout: 60_000 });
    // Asked of the running server itself: a CLI fallback reading the settings file would not prove it applied them live.
    const hostSessions = async () => {
      const server = readServerFile(env.BATON_HOME)!;
      const res = await fetch(`${server.url}/api/listSessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${new TokenStore(env.BATON_HOME).get()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 1000 }),
      });
      const page = (await res.json()) as { sessions: { id: string }[] };
      return page.sessions.filter((s) => s.id.startsWith(`${LABEL}/`)).length;
    };
    try {
      await until('serve is up', () => /login\?/.test(output) || serve.exitCode !== null, 30_000);
      expect(serve.exitCode, output).toBeNull();
      await baton('remote', 'add', machine.destination, '--label', LABEL, `--command=${machine.command}`, '--ssh-arg=-F', `--ssh-arg=${sshd.sshConfig}`);
      const expected = allExpected().length;
      const deadline = Date.now() + 30_000;
      let seen = 0;
      while ((seen = await hostSessions().catch(() => 0)) < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
      expect(seen, output).toBe(expected);
    } finally {
      if (serve.exitCode === null) {
        const exited = new Promise((resolve) => serve.once('exit', resolve));
        serve.kill('SIGTERM');
        await exited;
      }
    }
  }, 90_000);

  it('says so when Baton is not installed on the host, with the command that installs it', async () => {
    const host = new RemoteHost({ ...machine, command: 'baton-not-here-xyz' }, { controlDir: path.join(sshDir.dir, 'cm') });
    try {
      await expect(host.connect()).rejects.toThrow(/Baton is not installed there \(`baton-not-here-xyz` not found\)\. Install it there: npm install -g baton/);
    } finally {
      host.close();
    }
  });

  it("reads a host session's git state on the host, and says why when the host cannot be reached", async () => {
    const repoDir = path.join(remoteHome.home, 'projects', 'app');
    fs.mkdirSync(repoDir, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repoDir });
    git('init', '-q', '-b', 'feature/remote');
    fs.writeFileSync(path.join(repoDir, 'a.txt'), 'one\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const session = { ...index.getSession(`${LABEL}/claude:${claudeSession().id}`)!, cwd: repoDir };
    const at = new Date();

    const machines = new RemoteMachines(() => [machine], { controlDir: path.join(sshDir.dir, 'cm') });
    const unreachable = new RemoteMachines(() => [{ ...machine, sshArgs: sshd.sshArgs(sshd.wrongKeyConfig) }], { controlDir: path.join(sshDir.dir, 'cm-wrong2') });
    try {
      const { snapshot, fingerprint } = await machines.sessionGit().snapshot(session, at);
      expect(snapshot).toMatchObject({ isRepo: true, error: null, branch: 'feature/remote', headSubject: 'first' });
      fs.writeFileSync(path.join(repoDir, 'a.txt'), 'two\n');
      const drift = await machines.sessionGit().drift(session, snapshot, fingerprint, at);
      expect(drift.error).toBeNull();
      expect(drift.workTreeChanged).toBe(true);

      const failed = await unreachable.sessionGit().snapshot(session, at);
      expect(failed.snapshot.error).toMatch(new RegExp(`^the folder is on ${LABEL}, which cannot be reached: .*host key verification failed`));
      const other = await machines.sessionGit().snapshot({ ...session, id: 'elsewhere/claude:x' }, at);
      expect(other.snapshot.error).toMatch(/not an enabled machine/);
    } finally {
      machines.close();
      unreachable.close();
    }
  }, 30_000);

  it('"Open in" a host session starts the agent there, in its folder, with the brief as its first prompt', async () => {
    const brief = `# Handoff: it's "tricky"\n\nRun \`npm test\` then $(rm -rf /) — never; keep $HOME and \\backslashes\\.`;
    const cwd = path.join(remoteHome.home, "it's a project");
    fs.mkdirSync(cwd, { recursive: true });
    const hostSession = { ...index.getSession(`${LABEL}/claude:${claudeSession().id}`)!, cwd };
    const result = await openInAgent(
      {
        getSession: async () => hostSession,
        generateBrief: async (input) => ({ sessionId: input.session, target: 'claude', format: 'md', text: brief, tokens: 10, budget: 6000, redactions: {}, redacted: true, openCommand: null }),
        // No terminal on PATH: the command comes back to run ourselves, as a user would paste it.
        probe: hostProbe('linux', { PATH: '' }, laptop.dir),
        briefDir: path.join(laptop.dir, 'briefs'),
        remoteCommand: (session, agent, briefFile, shell) => ({ command: remoteOpenCommand(machine, path.join(sshDir.dir, 'cm'), agent, session.cwd!, briefFile, shell) }),
      },
      { session: hostSession.id, target: 'claude' },
    );
    expect(result.launched).toBe(false);
    expect(result.command).toMatch(/^'ssh' .* && 'ssh' .*'-t'/);
    const ran = spawnSync('sh', ['-c', result.command], { encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sshDir.dir, 'agent-ran'), 'utf8').split('\0').slice(0, -1)).toEqual([cwd, brief]);
    const copies = fs.readdirSync(path.join(remoteHome.home, '.cache', 'baton-briefs'));
    // The launcher (holding the brief) removed itself on the host once read.
    expect(copies).toEqual([]);
  });

  it('reads the host from inside the ingest worker thread, as the app does', async () => {
    const dataDir = path.join(laptop.dir, 'worker-index');
    const service = new IngestRunner({ dataDir, ingest: { kind: 'worker', adapterArgs: [config, environmentOf(laptopHome.env)] }, debounceMs: 20 });
    const changed = new Set<string>();
    service.on('sessions-changed', (ids) => ids.forEach((id) => changed.add(id)));
    try {
      await service.start();
      await service.whenCurrent();
      expect(service.index.listSessions({ limit: 1000 }).total).toBe(index.listSessions({ limit: 1000 }).total);
      expect(service.index.search('zanzibarquokka')).toHaveLength(1);
      // Pushed by the host into the worker's IndexWriteLoop, announced to this thread.
      appendTurn('workerpangolin');
      await until('append seen through the worker', () => service.index.search('workerpangolin').length > 0, 5000);
      expect(changed.has(`${LABEL}/claude:${claudeSession().id}`)).toBe(true);
      const status = await service.sourceStatus();
      expect(status.filter((s) => s.host === LABEL).every((s) => s.state === 'ok')).toBe(true);
    } finally {
      await service.stop();
    }
  }, 60_000);

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
