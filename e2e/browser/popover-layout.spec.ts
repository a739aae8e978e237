/**
 * The tray popover's size (420×640, electron/window/window.ts) in the light and the dark scheme:
 * the brief gets most of the height, usage folds to one remembered line, the "Open in" menu shows
 * its chevron, and no view (list, search, preview, settings with a machine) runs past the right edge.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { freePort } from '../../testing/baton-server.js';
import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

const POPOVER = { width: 420, height: 640 };
const CODEX_ID = 'codex:01a20157-94de-71d1-8e8d-ab66ac63d990'; // has token usage in the fixture stores
const BACKGROUND = { light: 'rgb(244, 244, 246)', dark: 'rgb(28, 28, 31)' }; // --bg of each scheme

/**
 * Everything in the app that is wider than its box, except what is meant to be cut with an ellipsis
 * and form fields (which scroll their own text). A child sticking out of its parent shows up as the
 * parent's scrollWidth, so this catches overflow hidden by `overflow: hidden` ancestors too.
 */
async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`document ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('.app *')) {
      // Screen-reader-only text is a 1-pixel clip on purpose.
      if (el.closest('input, select, textarea, svg, .visually-hidden') || el.clientWidth === 0) continue;
      if (getComputedStyle(el).textOverflow === 'ellipsis') continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        found.push(`${el.tagName.toLowerCase()}.${el.className || '-'} ${el.scrollWidth} > ${el.clientWidth}: ${(el.textContent ?? '').slice(0, 60)}`);
      }
    }
    return found;
  });
}

async function expectNoOverflow(page: Page, view: string): Promise<void> {
  await expect.poll(() => horizontalOverflow(page), { message: `${view} overflows horizontally` }).toEqual([]);
}

async function openCodexPreview(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Codex CLI' });
  await rows(page).and(page.locator(`[data-session-id="${CODEX_ID}"]`)).click();
  await expect(page.getByTestId('brief-text')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Brief', exact: true })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('region', { name: 'Usage' })).toBeVisible();
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme, viewport: POPOVER });

    test('the preview gives the brief the room; usage is one line until opened, and stays as the user left it', async ({ app }) => {
      await waitForSessions(app, 10);
      await expect(app.locator('body')).toHaveCSS('background-color', BACKGROUND[scheme]);
      await openCodexPreview(app);

      // The brief, whole and in view, takes more than half of the popover; the actions stay in view below it.
      const brief = app.getByRole('region', { name: 'Brief', exact: true });
      await expect.poll(async () => (await brief.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(POPOVER.height * 0.55);
      const box = (await brief.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(POPOVER.height);
      await expect(app.getByRole('button', { name: 'Copy brief' })).toBeInViewport({ ratio: 1 });
      await expect(app.getByRole('button', { name: /^Restore/ })).toBeInViewport({ ratio: 1 });

      // Usage: folded to one line with the totals; the details are not shown.
      const usage = app.getByRole('region', { name: 'Usage' });
      const toggle = usage.getByRole('button', { name: /^Usage/ });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(usage.getByTestId('usage-summary')).toHaveText(/^\d+(\.\d)?k tokens · (\$\d+\.\d\d|no price)/);
      await expect(usage.getByTestId('usage-models')).toHaveCount(0);
      expect((await usage.boundingBox())!.height).toBeLessThanOrEqual(32);

      // The "Open in" menu shows a drawn chevron (the native arrow took the select's transparent text colour: an empty box).
      const menu = app.getByRole('combobox', { name: 'Agent to open' });
      const chevron = app.locator('.split-menu svg');
      await expect(chevron).toBeVisible();
      expect(await chevron.locator('path').getAttribute('d')).toMatch(/\d/);
      await expect(chevron).not.toHaveCSS('color', 'rgba(0, 0, 0, 0)');
      await expect(menu).toHaveCSS('appearance', 'none');
      const [menuBox, chevronBox] = [(await menu.boundingBox())!, (await chevron.boundingBox())!];
      expect(chevronBox.x).toBeGreaterThanOrEqual(menuBox.x);
      expect(chevronBox.x + chevronBox.width).toBeLessThanOrEqual(menuBox.x + menuBox.width);
      await expectNoOverflow(app, 'preview');

      // Opened from the keyboard: the details show; the preview scrolls rather than clipping anything.
      await toggle.focus();
      await app.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(usage.getByTestId('usage-models')).toHaveText('gpt-5.5');
      await expectNoOverflow(app, 'preview with usage open');

      // The goal opens to its full text the same way.
      const goal = app.locator('details.goal');
      await goal.locator('summary').focus();
      await app.keyboard.press('Enter');
      await expect(goal).toHaveAttribute('open', '');
      await expectNoOverflow(app, 'preview with the goal open');
      const axe = await new AxeBuilder({ page: app }).include('.preview').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`)).toEqual([]);

      // Remembered across a reload (the popover's page is reloaded on restart).
      await app.reload();
      await waitForSessions(app, 10);
      await openCodexPreview(app);
      await expect(app.getByRole('region', { name: 'Usage' }).getByRole('button', { name: /^Usage/ })).toHaveAttribute('aria-expanded', 'true');
      await app.getByRole('region', { name: 'Usage' }).getByRole('button', { name: /^Usage/ }).click();
      await expect(app.getByRole('region', { name: 'Usage' }).getByTestId('usage-models')).toHaveCount(0);
    });

    test('no view runs past the right edge: list, search, preview panels, settings with long paths and a machine', async ({ app }) => {
      await waitForSessions(app, 10);
      await expect(app.locator('body')).toHaveCSS('background-color', BACKGROUND[scheme]);
      await expectNoOverflow(app, 'list');

      await app.getByLabel('Search sessions').fill('branch');
      await expect(app.getByText(/\d+ matching/)).toBeVisible();
      await expectNoOverflow(app, 'search');
      await app.getByLabel('Search sessions').fill('');

      await openCodexPreview(app);
      await app.getByRole('button', { name: /^Checkpoint/ }).click();
      await expect(app.getByLabel(/^Summary/)).toBeVisible();
      await expectNoOverflow(app, 'checkpoint form');
      await app.getByRole('button', { name: 'Cancel' }).click();
      await app.getByRole('button', { name: /^Restore/ }).click();
      await expect(app.getByRole('button', { name: 'Restore anyway' })).toBeVisible();
      await expectNoOverflow(app, 'restore panel');
      await app.getByRole('button', { name: 'Cancel' }).click();

      await app.getByRole('button', { name: 'Settings' }).click();
      const claude = app.getByRole('group', { name: 'Claude Code store' });
      // The temp home's paths are long: statuses and detected defaults name them in full.
      await expect(claude.locator('.path-status')).toHaveText(/sessions found/);
      await expect(claude.getByTestId('claude-status')).toHaveText(/sessions in \//);
      await expect(app.getByRole('group', { name: /Hooks/ }).getByTestId('hooks-gemini')).toBeVisible();
      await expect(app.getByLabel('MCP URL', { exact: true })).toBeVisible();
      await expectNoOverflow(app, 'settings');

      // A path that does not exist, and a machine with a long name that cannot be reached.
      const codex = app.getByRole('group', { name: 'Codex CLI store' });
      const missing = `/definitely/not/here/${'a-long-folder-name/'.repeat(6)}sessions`;
      await codex.getByRole('textbox').fill(missing);
      await expect(codex.locator('.path-status')).toHaveText(/Does not exist/);
      await codex.getByRole('textbox').press('Enter');
      await expect(codex.getByTestId('codex-status')).toHaveText(/no store|no sessions/);
      const closed = await freePort(); // nothing listens there
      await app.getByLabel('Add a machine').fill(`someone-with-a-very-long-user-name@127.0.0.1:${closed}`);
      await app.getByRole('button', { name: 'Add', exact: true }).click();
      const machine = app.getByRole('listitem', { name: 'Machine 127.0.0.1' });
      await expect(machine.getByRole('status')).toHaveText(/is unreachable/, { timeout: 30_000 });
      await expectNoOverflow(app, 'settings with a machine');

      // The settings rows themselves: each fits inside the popover.
      const widest = await app.locator('.settings fieldset, .setting, .agent-source, .machine').evaluateAll((els) =>
        Math.max(...els.map((el) => el.getBoundingClientRect().right)),
      );
      expect(widest).toBeLessThanOrEqual(POPOVER.width);

      // The list's empty state names that long path.
      await app.getByRole('button', { name: 'Back to sessions' }).click();
      await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Codex CLI' });
      await expect(app.getByRole('heading', { name: 'No Codex CLI sessions' })).toBeVisible();
      await expect(app.getByText(missing)).toBeVisible();
      await expectNoOverflow(app, 'empty list');
    });
  });
}
