import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical accessibility violations (${theme})`, async ({ app }, testInfo) => {
    await app.emulateMedia({ colorScheme: theme });
    await waitForSessions(app, 10);
    expect(await seriousViolations(app), 'list').toEqual([]);

    await app.getByRole('combobox', { name: 'Search sessions' }).fill('coffee');
    await expect(app.locator('mark').first()).toBeVisible();
    expect(await seriousViolations(app), 'search results').toEqual([]);

    await rows(app).first().click();
    await expect(app.getByTestId('brief-text')).toBeVisible();
    expect(await seriousViolations(app), 'preview').toEqual([]);
    if (theme === 'dark') await snapshot(app, 'preview-dark', testInfo);

    await app.getByRole('button', { name: 'Settings' }).click();
    await expect(app.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(app.locator('.path-status').first()).toBeVisible();
    expect(await seriousViolations(app), 'settings').toEqual([]);
  });
}
