/**
 * "Which agent carried on", end to end through a real core: a real baton.db with the folder switched
 * on, the Codex rollout recorded when its plan limit was hit (testing/fixtures/limits, its times moved
 * to now and its reset a few seconds ahead) appearing while Baton watches, the unattended handoff
 * saved by the normal handOff path (the terminal a stand-in on PATH that only logs), and then the
 * reset passing: the notice names the agent the handoff went to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api-types.js';
import type { UsageAlert } from '../../../shared/usage.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { STORE_ENV_KEYS } from '../../../testing/fixture-home.js';
import { setAutoContinue } from './auto-api.js';

const ROLLOUTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../testing/fixtures/limits/home/.codex/sessions/2026/11/27');
const RECORDED_AT = Date.parse('2026-11-27T05:28:57.459Z');
const RECORDED_RESET = 1795768067;
const RECORDED_CWD = '/tmp/c30rec/codex/proj';

let tmp: string;
let core: BatonCore | null = null;
const events: ApiEvent[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-carried-on-'));
  events.length = 0;
});
afterEach(async () => {
  await core?.close();
  core = null;
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 20_000): Promise<T> {
  for (const end = Date.now() + ms; ; ) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The recorded rollout, as if Codex had just been refused in `cwd`, its window resetting at `resetEpoch`. */
function liveRollout(home: string, cwd: string, resetEpoch: number): void {
  const [name] = fs.readdirSync(ROLLOUTS).filter((f) => f.endsWith('.jsonl'));
  const shift = Date.now() - RECORDED_AT;
  const text = fs
    .readFileSync(path.join(ROLLOUTS, name!), 'utf8')
    .replace(/"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)"/g, (_, iso: string) => JSON.stringify(new Date(Date.parse(iso) + shift).toISOString()))
    .replaceAll(`"resets_at":${RECORDED_RESET}`, `"resets_at":${resetEpoch}`)
    .replaceAll(RECORDED_CWD, cwd);
  const day = new Date().toISOString().slice(0, 10).split('-');
  const dir = path.join(home, '.codex', 'sessions', ...day);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name!), text);
}

describe('the reset notice after an unattended handoff', () => {
  it('names the agent the auto handoff went to: "Claude Code carried on"', async () => {
    const home = path.join(tmp, 'home');
    const project = path.join(tmp, 'project');
    const binDir = path.join(tmp, 'bin');
    const terminalLog = path.join(tmp, 'terminal.log');
    for (const dir of [home, project, binDir]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(binDir, 'x-terminal-emulator'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(terminalLog)}\n`, { mode: 0o755 });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_TERMINAL: 'x-terminal-emulator', PATH: [binDir, process.env.PATH].join(path.delimiter) };
    for (const key of STORE_ENV_KEYS) delete env[key];
    const dataDir = path.join(tmp, 'baton');
    core = await createBatonCore({ environment: { env, platform: 'linux', home }, dataDir, ingest: 'inline', watch: true, log: () => {} });
    core.events.subscribe((e) => events.push(e));
    await core.start();
    await core.whenCurrent();
    setAutoContinue(core.userData.auto, { on: true, folder: project, targets: ['claude'], when: ['limit'] });

    const resetEpoch = Math.ceil(Date.now() / 1000) + 6;
    liveRollout(home, project, resetEpoch);
    await core.syncNow();

    const hit = await until('the live hit', () => events.find((e): e is Extract<ApiEvent, { type: 'limit-hit' }> => e.type === 'limit-hit')?.hit);
    expect(hit).toMatchObject({ agent: 'codex', kind: 'usage_limit', resetsAt: new Date(resetEpoch * 1000).toISOString() });
    const run = await until('the unattended handoff', () => events.find((e): e is Extract<ApiEvent, { type: 'auto-continue' }> => e.type === 'auto-continue')?.run);
    expect(run).toMatchObject({ outcome: 'opened', target: 'claude', sourceSession: hit.session });
    // Saved through the normal handOff path: a checkpoint of the source session with its target.
    expect(core.userData.getCheckpoint(run.checkpointId!)?.handoff).toMatchObject({ agent: 'claude', projectDir: project });
    expect(fs.readFileSync(terminalLog, 'utf8')).toContain(`cd '${project}' && claude`);
    expect(events.some((e) => e.type === 'usage-alert' && e.alert.kind === 'reset')).toBe(false);

    const reset = await until('the reset notice', () =>
      events.find((e): e is Extract<ApiEvent, { type: 'usage-alert' }> => e.type === 'usage-alert' && e.alert.kind === 'reset')?.alert,
    ) satisfies UsageAlert;
    expect(Date.now()).toBeGreaterThanOrEqual(resetEpoch * 1000);
    expect(reset.message).toMatch(/^Codex CLI's usage limit has reset \(hit at .+\)\. Claude Code carried on\.$/);
    expect(reset.carriedOnBy).toEqual({ agent: 'claude', session: null });
    expect(reset.hit?.key).toBe(hit.key);
  }, 60_000);
});
