/**
 * The real interactive Gemini CLI (0.61, in tmux) against a provider answering 429 RESOURCE_EXHAUSTED
 * (testing/agents/limit-mock.ts), with a watching Baton core. Headless `gemini -p` records nothing of
 * the refusal (limit-hits.test.ts pins that); the TUI offers "Usage limit reached" dialogs and, once the
 * user stops, records an `error` notice "[API Error: You have exhausted your daily quota…]" in the chat
 * file: Baton reports it as a quota hit of that session, live, while the session is open.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitHit } from '../../shared/limits.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { STORE_ENV_KEYS } from '../../testing/fixture-home.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { startLimitMock, type LimitMock } from '../../testing/agents/limit-mock.js';
import { hasTmux, startTui, type Tui } from '../../testing/agents/tmux-tui.js';

let tmp: string;
let home: string;
let limit: LimitMock;
let core: BatonCore;
let tui: Tui | null = null;
const live: LimitHit[] = [];

async function until<T>(what: string, probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${tui ? `; screen:\n${tui.screen()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-gemini-limit-'));
  home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  limit = await startLimitMock();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const key of STORE_ENV_KEYS) delete env[key];
  core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: path.join(tmp, 'baton'), ingest: 'inline', log: () => {} });
  core.events.subscribe((e) => {
    if (e.type === 'limit-hit') live.push(e.hit);
  });
  await core.start();
  await core.whenCurrent();
}, 120_000);

afterAll(async () => {
  tui?.stop();
  await core?.close();
  await limit?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!hasTmux())('Gemini CLI 0.61 interactive, refused by its quota', () => {
  it('records the refusal as an error notice, which Baton reports as a live quota hit of that session', async () => {
    const cli = await ensureAgentCli('gemini');
    requireCli(cli);
    const cwd = path.join(home, 'proj');
    fs.mkdirSync(cwd, { recursive: true });
    tui = startTui({ bin: cli.bin, args: ['--yolo'], cwd, env: agentEnv('gemini', home, limit.url) });
    const t = tui;
    await t.waitFor(/Type your message/, 60_000);
    // A TUI still starting drops keys: type until the text shows, then submit.
    for (let attempt = 0; !/say hello/.test(t.screen()); attempt++) {
      if (attempt > 0) t.keys('C-u');
      t.type('say hello');
      await until('the typed prompt', () => /say hello/.test(t.screen()), 5_000).catch(() => null);
    }
    await until('the prompt to be sent', () => {
      if (limit.requests.length > 0) return true;
      t.keys('Enter');
      return false;
    }, 30_000);
    // Each "Usage limit reached" dialog (the routing model, then the Pro models): choose "Stop".
    await until('the API error notice', async () => {
      const s = t.screen();
      if (/API Error/.test(s)) return true;
      if (/Usage limit reached/.test(s) && /● 1\./.test(s)) {
        t.keys('Down');
        await new Promise((r) => setTimeout(r, 300));
        t.keys('Enter');
        await new Promise((r) => setTimeout(r, 1_000));
      }
      return false;
    }, 90_000);

    const hit = await until('the live limit-hit event', () => live.find((h) => h.agent === 'gemini'));
    expect(hit).toMatchObject({ kind: 'quota', resetsAt: null });
    expect(hit.note).toContain('exhausted your daily quota');
    const session = await core.api.getSession({ session: hit.session });
    expect(session.cwd).toBe(cwd);
    const summary = await core.api.usageSummary({});
    expect(summary.agents.find((a) => a.agent === 'gemini')?.limitHit?.key).toBe(hit.key);
    expect(live.filter((h) => h.agent === 'gemini')).toHaveLength(1);
  }, 300_000);
});
