// The alert watcher over a real core and index: records appended to the fixture stores, read by a
// sync (which emits sessions-changed as the live watcher would), turn into usage-alert events, once.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api-types.js';
import type { UsageAlert } from '../../../shared/usage.js';
import { createBatonCore, type BatonCore } from '../service.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { watchUsageAlerts } from './usage-watch.js';

const CODEX_ID = '01a20157-94de-71d1-8e8d-ab66ac63d990';
const CLAUDE_ID = 'b42c0a6e-a02b-4697-ac0c-06fa49f37304';

function findFile(root: string, part: string): string {
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.includes(part) && entry.name.endsWith('.jsonl')) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no file with ${part} under ${root}`);
}

const tokenCount = (prompt: number, total: number) =>
  `{"timestamp":"${new Date().toISOString()}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":${total},"cached_input_tokens":0,"output_tokens":2000,"reasoning_output_tokens":0,"total_tokens":${total + 2000}},"last_token_usage":{"input_tokens":${prompt},"cached_input_tokens":0,"output_tokens":100,"reasoning_output_tokens":0,"total_tokens":${prompt + 100}},"model_context_window":272000},"rate_limits":null}}\n`;

describe('usage alert watcher', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let stop: () => void;
  const alerts: UsageAlert[] = [];
  let waiters: (() => void)[] = [];

  /** Resolves once `count` alerts have been emitted in all. */
  const alertCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (alerts.length >= count ? resolve() : waiters.push(check));
      check();
    });

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await createBatonCore({ environment: { env: fixture.env, platform: process.platform, home: fixture.home }, dataDir: fixture.env.BATON_HOME, ingest: 'inline', watch: false, log: () => undefined });
    await core.start();
    await core.whenCurrent();
    stop = watchUsageAlerts({ events: core.events, summary: () => core.api.usageSummary({}), settings: () => core.settings.get(), log: () => undefined, delayMs: 0 });
    core.events.subscribe((event: ApiEvent) => {
      if (event.type !== 'usage-alert') return;
      alerts.push(event.alert);
      const pending = waiters;
      waiters = [];
      for (const w of pending) w();
    });
  });
  afterAll(async () => {
    stop?.();
    await core?.close();
    fixture?.cleanup();
  });

  it('announces a live session crossing the threshold once, and an agent hitting its limit', async () => {
    const codexFile = findFile(path.join(fixture.home, '.codex', 'sessions'), CODEX_ID);
    fs.appendFileSync(codexFile, tokenCount(100_000, 140_000));
    await core.syncNow();
    fs.appendFileSync(codexFile, tokenCount(250_000, 390_000));
    await core.syncNow();
    await alertCount(1);
    expect(alerts[0]).toMatchObject({ kind: 'context', agent: 'codex', session: `codex:${CODEX_ID}`, suggestedTarget: 'claude', contextPercent: 91.9 });

    const reset = Math.floor((Date.now() + 3_600_000) / 1000);
    fs.appendFileSync(codexFile, tokenCount(255_000, 645_000));
    fs.appendFileSync(
      findFile(path.join(fixture.home, '.claude', 'projects'), CLAUDE_ID),
      `{"parentUuid":null,"isSidechain":false,"type":"assistant","uuid":"0b9d1c2e-0000-4000-8000-000000000007","timestamp":"${new Date().toISOString()}","sessionId":"${CLAUDE_ID}","cwd":"/home/ana/projects/demo-app","message":{"id":"msg_limit_w","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"Claude AI usage limit reached|${reset}"}],"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"isApiErrorMessage":true}\n`,
    );
    await core.syncNow();
    await alertCount(2);
    // Emitted from the same check: the codex session still over the line is not announced again.
    expect(alerts.slice(1)).toEqual([expect.objectContaining({ kind: 'limit', agent: 'claude', session: `claude:${CLAUDE_ID}`, suggestedTarget: 'codex', resetsAt: new Date(reset * 1000).toISOString() })]);
  });
});
