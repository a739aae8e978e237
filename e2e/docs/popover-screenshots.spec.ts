/**
 * The README's popover screenshots (docs/popover-light.png, docs/popover-dark.png): the preview of a
 * Claude Code session at the tray popover's size, in each scheme. Not part of the suite (it would
 * rewrite tracked files): its Playwright project exists only under BATON_DOCS_SHOTS=1, which
 * `npm run docs:screenshots` sets, after a change to the popover.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');
const CLAUDE_ID = 'claude:1acd9001-6177-4eae-b40d-71af70d0b76c';

for (const scheme of ['light', 'dark'] as const) {
  test(`popover screenshot, ${scheme} scheme`, async ({ app }) => {
    await app.emulateMedia({ colorScheme: scheme });
    await app.setViewportSize({ width: 420, height: 640 });
    await waitForSessions(app, 10);
    await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Claude Code' });
    await rows(app).and(app.locator(`[data-session-id="${CLAUDE_ID}"]`)).click();
    await expect(app.getByTestId('brief-text')).toBeVisible();
    await expect(app.getByRole('region', { name: 'Brief', exact: true })).toHaveAttribute('aria-busy', 'false');
    await expect(app.getByRole('region', { name: 'Usage' })).toBeVisible();
    await app.getByRole('region', { name: 'Brief', exact: true }).focus(); // no focus ring on a control
    await app.mouse.move(0, 0);
    await app.screenshot({ path: path.join(DOCS, `popover-${scheme}.png`) });
  });
}
