/**
 * The tray popover's size (420×640, electron/window/window.ts) in the light and the dark scheme:
 * the brief gets most of the height, the target picker is one row, usage folds to one remembered line, the "Open in" menu shows
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

/**
 * The target picker's radios and "More" menu: their boxes, and whether the row would still be one
 * row if its agents had the widest names of all thirteen (the fixture's own picks are not the widest).
 */
async function targetPickerRow(page: Page): Promise<{ tops: number[]; bottoms: number[]; right: number; room: number; widestFits: boolean; widest: string; menuFits: boolean; menuSaid: string }> {
  return page.evaluate(() => {
    const picker = document.querySelector<HTMLElement>('.target-picker')!;
    const radios = [...picker.querySelectorAll<HTMLElement>('[role="radio"]')];
    const menu = picker.querySelector<HTMLSelectElement>('select')!;
    const parts = [...radios, menu];
    const boxes = parts.map((el) => el.getBoundingClientRect());
    const controls = picker.parentElement!;
    const room = controls.getBoundingClientRect().right - parseFloat(getComputedStyle(controls).paddingRight);
    const right = Math.max(...boxes.map((b) => b.right));
    // Every agent name, measured in a radio of the row, then the widest ones put in the agents' radios.
    const names = [...radios.slice(1).map((r) => r.textContent ?? ''), ...[...menu.options].filter((o) => o.value).map((o) => o.text)];
    const probe = radios[1]!;
    const saved = radios.map((r) => r.textContent ?? '');
    const label = (radio: HTMLElement, name: string) => {
      radio.textContent = name;
    };
    const width = (name: string) => {
      label(probe, name);
      return probe.getBoundingClientRect().width;
    };
    const widest = [...names].sort((a, b) => width(b) - width(a));
    radios.slice(1).forEach((r, i) => label(r, widest[i] ?? ''));
    const wide = parts.map((el) => el.getBoundingClientRect());
    const widestFits = Math.max(...wide.map((b) => b.right)) <= room && Math.max(...wide.map((b) => b.top)) < Math.min(...wide.map((b) => b.bottom));
    const widestSaid = `${widest.slice(0, radios.length - 1).join(', ')}: right ${Math.max(...wide.map((b) => b.right))} of ${room}`;
    radios.forEach((r, i) => label(r, saved[i] ?? ''));
    // The menu's closed box shows any agent's name whole, clear of its chevron (its width is fixed
    // so the row never moves).
    const text = document.createElement('span');
    text.style.cssText = `font: ${getComputedStyle(menu).font}; position: absolute; visibility: hidden; white-space: pre`;
    document.body.append(text);
    const longest = Math.max(...[...names, 'More…'].map((name) => ((text.textContent = name), text.getBoundingClientRect().width)));
    text.remove();
    const style = getComputedStyle(menu);
    const inner = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { tops: boxes.map((b) => b.top), bottoms: boxes.map((b) => b.bottom), right, room, widestFits, widest: widestSaid, menuFits: longest <= inner, menuSaid: `${longest} in ${inner}` };
  });
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

      // The target picker is one row: Generic and four agents as radios, the other nine in "More",
      // and it would still be one row with the four widest names; picking from "More" moves nothing.
      await expect(app.getByRole('radiogroup', { name: 'Target agent' }).getByRole('radio')).toHaveCount(5);
      const more = app.getByRole('combobox', { name: 'More target agents' });
      await expect(more.locator('option:not([value=""])')).toHaveCount(9);
      const row = await targetPickerRow(app);
      // One row: every part overlaps every other vertically (a wrapped part would start below the others' bottoms).
      expect(Math.max(...row.tops), `picker tops ${row.tops.join(', ')}, bottoms ${row.bottoms.join(', ')}`).toBeLessThan(Math.min(...row.bottoms));
      expect(row.right).toBeLessThanOrEqual(row.room);
      expect(row.widestFits, row.widest).toBe(true);
      expect(row.menuFits).toBe(true);
      const briefTop = box.y;
      const optionValues = await more.locator('option:not([value=""])').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      await more.selectOption(optionValues.at(-1)!);
      await expect(more).toHaveAttribute('data-checked', 'true');
      await expect(app.getByRole('radiogroup', { name: 'Target agent' }).getByRole('radio', { checked: true })).toHaveCount(0);
      await expect(brief).toHaveAttribute('aria-busy', 'false');
      await expect(brief).toHaveAttribute('data-target', optionValues.at(-1)!);
      expect((await targetPickerRow(app)).tops).toEqual(row.tops);
      expect((await brief.boundingBox())!.y).toBe(briefTop);
      await app.getByRole('radio', { name: 'Generic' }).click();
      await expect(brief).toHaveAttribute('data-target', 'generic');

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
