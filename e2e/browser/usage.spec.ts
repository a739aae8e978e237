// Usage in the UI through headless mode: a fixture home whose Codex session is live (records
// appended with current timestamps, shaped as electron/core/usage/usage-report.test.ts writes them),
// the list's context meters, the preview's usage panel, and the usage alerts with their action (a handoff, #13),
// triggered by appending records while the page is open (what an agent writing its transcript does).
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { makeFixtureHome } from '../../testing/fixture-home.js';
import { localClock } from '../../shared/usage-format.js';
import { expect, rows, test as base, waitForSessions } from '../support/fixtures.js';

const CODEX_ID = 'codex:01a20157-94de-71d1-8e8d-ab66ac63d990';
const CLAUDE_ID = 'claude:b42c0a6e-a02b-4697-ac0c-06fa49f37304';
const WINDOW = 272_000;

function findFile(root: string, part: string): string {
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.includes(part) && entry.name.endsWith('.jsonl')) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no file with ${part} under ${root}`);
}

/** Appends Codex token_count events (one request each, cumulative totals as Codex keeps them). */
class CodexWriter {
  private total = 38_673; // the fixture session's totals so far
  private output = 1_068;
  constructor(readonly file: string) {}

  request(prompt: number, at = Date.now()): void {
    this.total += prompt;
    this.output += 100;
    const usage = (input: number, output: number) => ({ input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output });
    const line = { timestamp: new Date(at).toISOString(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage(this.total, this.output), last_token_usage: usage(prompt, 100), model_context_window: WINDOW }, rate_limits: null } };
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

const test = base.extend<{ codex: CodexWriter; claudeFile: string }>({
  // The fixture home with the Codex session live at half its context, after one compaction.
  // eslint-disable-next-line no-empty-pattern
  fixtureHome: async ({}, use) => {
    const home = makeFixtureHome();
    const codex = new CodexWriter(findFile(path.join(home.home, '.codex', 'sessions'), CODEX_ID.slice(6)));
    const now = Date.now();
    codex.request(150_000, now - 180_000);
    codex.request(30_000, now - 120_000); // the agent compacted its history
    codex.request(WINDOW / 2, now - 60_000);
    await use(home);
    home.cleanup();
  },
  codex: async ({ fixtureHome }, use) => {
    await use(new CodexWriter(findFile(path.join(fixtureHome.home, '.codex', 'sessions'), CODEX_ID.slice(6))));
  },
  claudeFile: async ({ fixtureHome }, use) => {
    await use(findFile(path.join(fixtureHome.home, '.claude', 'projects'), CLAUDE_ID.slice(7)));
  },
});

const row = (page: Page, id: string) => rows(page).and(page.locator(`[data-session-id="${id}"]`));
const meterOf = (page: Page, id: string) => row(page, id).getByRole('meter', { name: 'Context window used' });

/** Ready for live updates: the list is in, the live session's meter shows, and the event stream is connected. */
async function ready(page: Page): Promise<void> {
  await waitForSessions(page, 10);
  await expect(meterOf(page, CODEX_ID)).toHaveAttribute('aria-valuenow', '50');
  await expect(page.locator('.connection[data-state="connected"]')).toBeVisible();
}

test('live sessions show a context meter that follows new requests; the preview shows the session’s usage', async ({ app, codex }) => {
  await ready(app);
  // Only the live session has a meter.
  await expect(rows(app).getByRole('meter')).toHaveCount(1);
  await expect(row(app, CODEX_ID).locator('.context-meter')).toHaveAttribute('title', /Context 50 % full \(136k of 272k tokens\)/);

  // The agent sends another request: the meter follows (below the alert threshold, so no alert).
  codex.request(163_200);
  await expect(meterOf(app, CODEX_ID)).toHaveAttribute('aria-valuenow', '60');
  await expect(app.locator('.notice[data-alert]')).toHaveCount(0);

  await row(app, CODEX_ID).click();
  const panel = app.getByRole('region', { name: 'Usage' });
  await panel.getByRole('button', { name: /^Usage/ }).click(); // folded by default (the popover's room is the brief's)
  await expect(panel.getByTestId('usage-models')).toHaveText('gpt-5.5');
  await expect(panel.getByTestId('usage-cost')).toHaveText(/^\$\d+\.\d\d$/);
  await expect(panel.getByRole('meter', { name: 'Context window used' })).toHaveAttribute('aria-valuenow', '60');
  await expect(panel.getByTestId('usage-compactions')).toHaveText('1 compaction');
  const sparkline = panel.getByRole('img', { name: /^Context over \d+ requests, from .* to 163k tokens of 272k; 1 compaction\.$/ });
  await expect(sparkline).toBeVisible();
  const points = Number(await sparkline.getAttribute('data-points'));
  await expect(panel.locator('polyline')).toHaveAttribute('points', new RegExp(`^(\\S+ ){${points - 1}}\\S+$`));
  await expect(panel.locator('.compaction-mark')).toHaveCount(1);

  // A session of an unpriced model says so instead of $0.00.
  await app.getByRole('button', { name: 'Back to sessions' }).click();
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Claude Code' });
  await row(app, CLAUDE_ID).click();
  await expect(app.getByRole('region', { name: 'Usage' }).getByTestId('usage-cost')).toHaveText('no price');
  await expect(app.getByRole('region', { name: 'Usage' }).getByTestId('usage-models')).toHaveText('claude-opus-5-5');
});

test('a session crossing the context threshold and an agent hitting its limit are announced once; their action creates the handoff', async ({ app, codex, claudeFile }) => {
  await ready(app);

  codex.request(Math.round(WINDOW * 0.91));
  const contextAlert = app.locator('.notice[data-alert="context"]');
  await expect(contextAlert).toContainText(/A Codex CLI session .* is at 91 % of its context window\. Hand off to Claude Code\?/);
  await expect(meterOf(app, CODEX_ID)).toHaveAttribute('aria-valuenow', '91');
  await expect(row(app, CODEX_ID).locator('.context-meter')).toHaveAttribute('data-level', 'full');

  // One more request over the line: no second alert.
  codex.request(Math.round(WINDOW * 0.93));
  await expect(meterOf(app, CODEX_ID)).toHaveAttribute('aria-valuenow', '93');
  await expect(app.locator('.notice[data-alert="context"]')).toHaveCount(1);

  const axe = await new AxeBuilder({ page: app }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html.slice(0, 120) + ' ' + (n.failureSummary ?? '')) }))).toEqual([]);

  await contextAlert.getByRole('button', { name: 'Hand off to Claude Code' }).click();
  // The handoff flow (#13): a pending handoff to Claude Code, its brief also copied (no hooks in this home).
  await expect(app.getByText(/^Handed off to Claude Code\. It has no Baton start-up hook, so paste the brief \(copied\)/)).toBeVisible();
  await expect(contextAlert).toHaveCount(0);
  const copied = await app.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('Run `ls -la` and give me a quick overview of the files here.'); // the Codex session's goal
  await row(app, CODEX_ID).click();
  await expect(app.getByTestId('handoffs').locator('li[data-status="pending"]')).toHaveText(/^Claude Code — pending until /);

  // Claude Code writes its limit message: announced with its reset time, handing off to Codex.
  const reset = Math.floor((Date.now() + 2 * 3_600_000) / 1000);
  fs.appendFileSync(
    claudeFile,
    `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'assistant', uuid: '0b9d1c2e-0000-4000-8000-000000000009', timestamp: new Date().toISOString(), sessionId: CLAUDE_ID.slice(7), cwd: '/home/ana/projects/demo-app', message: { id: 'msg_limit_e2e', type: 'message', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: `Claude AI usage limit reached|${reset}` }], usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } }, isApiErrorMessage: true })}\n`,
  );
  const limitAlert = app.locator('.notice[data-alert="limit"]');
  await expect(limitAlert).toContainText(`Claude Code reached its usage limit (resets ${localClock(new Date(reset * 1000).toISOString())}). Hand off to Codex CLI?`);
  await limitAlert.getByRole('button', { name: 'Hand off to Codex CLI' }).click();
  await expect(app.getByText(/^Handed off to Codex CLI\./)).toBeVisible();
  await expect.poll(() => app.evaluate(() => navigator.clipboard.readText())).toContain('Which branch am I on, and what does this project do?');
  await app.getByRole('button', { name: 'Back to sessions' }).click();
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Claude Code' });
  await row(app, CLAUDE_ID).click();
  await expect(app.getByTestId('handoffs').locator('li[data-status="pending"]')).toHaveText(/^Codex CLI — pending until /);
});

test('the context threshold set in Settings decides when a session is announced', async ({ app, codex }) => {
  await ready(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  await expect(app.getByRole('switch', { name: /Notify when a session’s context is nearly full/ })).toBeChecked();
  const threshold = app.getByRole('spinbutton', { name: 'Context alert at (% of the window)' });
  await expect(threshold).toHaveValue('85');
  const saved = app.waitForResponse((r) => r.url().endsWith('/api/updateSettings') && r.ok());
  await threshold.fill('60');
  await threshold.press('Enter');
  await saved;
  const stored = await app.evaluate(async () => (await (await fetch('/api/getSettings', { method: 'POST', body: '{}' })).json()) as { settings: { usageAlertContextPercent: number } });
  expect(stored.settings.usageAlertContextPercent).toBe(60);

  codex.request(Math.round(WINDOW * 0.62));
  await expect(app.locator('.notice[data-alert="context"]')).toContainText('is at 62 % of its context window. Hand off to Claude Code?');
});
