// "Hand off to …" through the API contract (what the popover calls): real fixture stores and index,
// a real baton.db, the real hooks installer, and the hook entry receiving the handoff.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiInput } from '../../../shared/contract.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { runHook } from './hook-main.js';
import { receivesHandoffsByItself } from '../install/agent-delivery.js';
import { installPiExtension, uninstallPiExtension, PI_EXTENSION_MARKER } from '../install/plugins/pi-extension.js';
import { mcpEndpoint } from '../install/endpoint.js';
import { mcpConfigFile } from '../install/config/config-locations.js';
import { nudgeRunningBaton } from './nudge.js';
import { readServerFile } from '../server/server-file.js';
import { startLocalServer } from '../local-server.js';

describe('handOff, listHandoffs, hooksStatus and installHooks through the API', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let project: string;
  const SOURCE = 'claude:1acd9001-6177-4eae-b40d-71af70d0b76c';

  beforeAll(async () => {
    fixture = makeFixtureHome();
    project = path.join(fixture.home, 'work', 'demo-app');
    fs.mkdirSync(project, { recursive: true });
    core = await createBatonCore({
      environment: { env: fixture.env, platform: process.platform, home: fixture.home },
      dataDir: String(fixture.env.BATON_HOME),
      ingest: 'inline',
      watch: false,
      log: () => {},
    });
    await core.start();
    await core.whenCurrent();
    core.settings.update({ handoffExpiryHours: 2 });
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('saves a pending handoff with the brief for the target, and tells whether its hook will deliver it', async () => {
    // The fixture session's folder does not exist here; hand off into a real one.
    const result = await core.handoff.createHandoff({ sessionId: SOURCE, target: 'codex', projectDir: project });
    expect(result.brief).toContain('git log --oneline');
    expect(result.checkpoint.status).toBe('pending');
    expect(result.checkpoint.handoff).toMatchObject({ agent: 'codex', projectDir: fs.realpathSync(project), receivedBy: null });
    const hours = (Date.parse(result.checkpoint.handoff!.expiresAt) - Date.parse(result.checkpoint.createdAt)) / 3_600_000;
    expect(hours).toBe(2);

    const [codex] = await core.api.hooksStatus(parseApiInput('hooksStatus', { agent: 'codex' }));
    expect(codex!.installed).toBe(false);
    const [installed] = await core.api.installHooks(parseApiInput('installHooks', { agent: 'codex' }));
    expect(installed!.changed).toBe(true);
    expect((await core.api.hooksStatus(parseApiInput('hooksStatus', { agent: 'codex' })))[0]!.installed).toBe(true);

    let out = '';
    await runHook(['session-start', '--agent', 'codex'], {
      stdin: async () => JSON.stringify({ session_id: 'thread-1', cwd: project, source: 'startup' }),
      stdout: (t) => (out += t),
      env: fixture.env,
      cwd: project,
    });
    expect(out).toContain('git log --oneline');

    const handoffs = await core.api.listHandoffs(parseApiInput('listHandoffs', { session: SOURCE }));
    expect(handoffs[0]).toMatchObject({ id: result.checkpoint.id, status: 'received', handoff: { receivedBy: 'codex:thread-1' } });
    const all = await core.api.listHandoffs(parseApiInput('listHandoffs', {}));
    expect(all.map((h) => h.id)).toContain(result.checkpoint.id);

    const [removed] = await core.api.installHooks(parseApiInput('installHooks', { agent: 'codex', uninstall: true }));
    expect(removed!.changed).toBe(true);
    expect(fs.existsSync(path.join(fixture.home, '.codex', 'hooks.json'))).toBe(false);
  });

  it('pi receives by itself once Baton’s pi extension (with its handoff hook) is installed; an older extension without it does not', () => {
    expect(receivesHandoffsByItself(core, 'pi')).toBe(false);
    expect(installPiExtension({ environment: core.environment, endpoint: mcpEndpoint(8765, 'tok') }).ok).toBe(true);
    expect(receivesHandoffsByItself(core, 'pi')).toBe(true);
    fs.writeFileSync(mcpConfigFile('pi', core.environment), `${PI_EXTENSION_MARKER} (tools only)\nexport default async function baton() {}\n`);
    expect(receivesHandoffsByItself(core, 'pi')).toBe(false);
    uninstallPiExtension({ environment: core.environment });
  });

  it("handOff (the popover's action) hands off into the session's own folder and says the target has no hook", async () => {
    const result = await core.api.handOff(parseApiInput('handOff', { session: SOURCE, target: 'hermes' }));
    // The fixture's folder (/home/ana/…) may not exist, but it is still the folder the handoff names.
    expect(result).toMatchObject({ hooksInstalled: false, delivery: { via: 'hook', command: 'baton hooks install --agent hermes' }, opened: null, checkpoint: { handoff: { agent: 'hermes', projectDir: '/home/ana/projects/demo-app' } } });
  });

  it("a Stop hook's nudge reaches the running Baton (server.json names its port) and nothing is sent once it stopped", async () => {
    const dataDir = String(fixture.env.BATON_HOME);
    const server = await startLocalServer(core, 0);
    try {
      expect(readServerFile(dataDir)).toMatchObject({ port: server.port, pid: process.pid });
      expect(await nudgeRunningBaton(dataDir, 'claude')).toBe('sent');
    } finally {
      await server.close();
    }
    expect(readServerFile(dataDir)).toBeNull();
    expect(await nudgeRunningBaton(dataDir, 'claude')).toBe('not-running');
  });
});
