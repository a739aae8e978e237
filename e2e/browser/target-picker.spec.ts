/**
 * The preview's brief-target picker with thirteen agents: one row of radios (Generic and the four
 * agents worked with most recently here, or the default target), the other nine in "More"; every
 * target reachable by keyboard, and changing it moves nothing.
 */
import type { Page } from '@playwright/test';
import { AGENT_LABELS, AGENTS, type AgentId, type SourceStatus } from '../../shared/model.js';
import { BRIEF_TARGETS } from '../../shared/settings.js';
import { expect, rows, test, waitForSessions } from '../support/fixtures.js';

const SHORT: Record<string, string> = { generic: 'Generic', claude: 'Claude', codex: 'Codex', opencode: 'OpenCode', hermes: 'Hermes', gemini: 'Gemini', qwen: 'Qwen', pi: 'pi', cline: 'Cline', kilo: 'Kilo', copilot: 'Copilot', continue: 'Continue', droid: 'Droid', letta: 'Letta' };

/** Per agent in this machine's stores, as the server reports them: sessions, and the newest one's last change (epoch ms, 0: none). */
async function storeFacts(page: Page): Promise<{ counts: Map<AgentId, number>; latest: Map<AgentId, number> }> {
  const sources = await page.evaluate(async () => {
    const res = await fetch('/api/sourceStatus', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return (await res.json()) as SourceStatus[];
  });
  const counts = new Map<AgentId, number>(AGENTS.map((a) => [a, 0]));
  const latest = new Map<AgentId, number>(AGENTS.map((a) => [a, 0]));
  for (const s of sources) {
    if (s.host !== undefined) continue;
    counts.set(s.agent, (counts.get(s.agent) ?? 0) + s.sessions);
    if (s.latestAt) latest.set(s.agent, Math.max(latest.get(s.agent) ?? 0, Date.parse(s.latestAt)));
  }
  return { counts, latest };
}

async function openPreview(page: Page): Promise<void> {
  await waitForSessions(page, 10);
  await rows(page).first().click();
  await expect(page.getByRole('region', { name: 'Brief', exact: true })).toHaveAttribute('aria-busy', 'false');
}

/** Where each part of the picker and the brief sit. */
async function layout(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [...document.querySelectorAll<HTMLElement>('.target-picker [role="radio"], .target-picker select, .brief')];
    return parts.map((el) => { const b = el.getBoundingClientRect(); return `${b.left},${b.top},${b.width},${b.height}`; }).join(' ');
  });
}

test.use({ viewport: { width: 420, height: 640 } });

test('the row holds Generic and the four agents worked with most recently here; More holds the other nine', async ({ app }) => {
  await openPreview(app);
  const { counts, latest } = await storeFacts(app);
  const picker = app.getByRole('radiogroup', { name: 'Target agent' });
  const radios = await picker.getByRole('radio').allInnerTexts();
  expect(radios).toHaveLength(5);
  expect(radios[0]).toBe('Generic');
  const more = app.getByRole('combobox', { name: 'More target agents' });
  const options = await more.locator('option').evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent, disabled: (o as HTMLOptionElement).disabled })));
  expect(options[0]).toEqual({ value: '', text: 'More…', disabled: true });
  await expect(more).toHaveValue('');
  const inRow = AGENTS.filter((a) => radios.includes(SHORT[a]!));
  const inMore = options.slice(1).map((o) => o.value as AgentId);
  // Every target once, in the canonical order within each part.
  expect([...inRow, ...inMore].sort()).toEqual([...AGENTS].sort());
  expect(inMore).toEqual(AGENTS.filter((a) => !inRow.includes(a)));
  expect(options.slice(1).map((o) => o.text)).toEqual(inMore.map((a) => SHORT[a]));
  // The row's agents are those worked with most recently: none in More with sessions is newer than any in the row.
  const oldestInRow = Math.min(...inRow.map((a) => latest.get(a)!));
  const used = inMore.filter((a) => counts.get(a)! > 0);
  expect(Math.max(0, ...used.map((a) => latest.get(a)!))).toBeLessThanOrEqual(oldestInRow);
  expect(Math.min(...inRow.map((a) => counts.get(a)!))).toBeGreaterThan(0);
  // Each names itself in full on hover.
  await expect(picker.getByRole('radio', { name: 'Generic' })).toHaveAttribute('title', 'Any agent');
  await expect(picker.getByRole('radio', { name: SHORT[inRow[0]!]!, exact: true })).toHaveAttribute('title', AGENT_LABELS[inRow[0]!]);
});

test('t reaches all fourteen targets in turn, each shown checked where it sits, and nothing moves', async ({ app }) => {
  await openPreview(app);
  const picker = app.getByRole('radiogroup', { name: 'Target agent' });
  const more = app.getByRole('combobox', { name: 'More target agents' });
  const brief = app.getByRole('region', { name: 'Brief', exact: true });
  const rowNames = await picker.getByRole('radio').allInnerTexts();
  await expect(app.getByRole('radio', { name: 'Generic' })).toHaveAttribute('aria-checked', 'true');
  const start = await layout(app);
  for (const target of [...BRIEF_TARGETS.slice(1), 'generic' as const]) {
    await app.keyboard.press('t');
    await expect(brief).toHaveAttribute('data-target', target);
    if (rowNames.includes(SHORT[target]!)) {
      await expect(picker.getByRole('radio', { name: SHORT[target]!, exact: true })).toHaveAttribute('aria-checked', 'true');
      await expect(more).toHaveValue('');
      await expect(more).toHaveAttribute('data-checked', 'false');
    } else {
      await expect(more).toHaveValue(target);
      await expect(more).toHaveAttribute('data-checked', 'true');
      await expect(picker.getByRole('radio', { checked: true })).toHaveCount(0);
    }
    await expect(brief).toHaveAttribute('aria-busy', 'false');
    expect(await layout(app), `after t to ${target}`).toBe(start);
  }
});

test('by keyboard: Tab from the row to More, arrows pick in both, Escape leaves the preview', async ({ app }) => {
  await openPreview(app);
  const picker = app.getByRole('radiogroup', { name: 'Target agent' });
  const more = app.getByRole('combobox', { name: 'More target agents' });
  const brief = app.getByRole('region', { name: 'Brief', exact: true });
  const rowNames = await picker.getByRole('radio').allInnerTexts();
  const generic = app.getByRole('radio', { name: 'Generic' });
  await generic.focus();
  await app.keyboard.press('Tab');
  await expect(more).toBeFocused();
  // A closed select changes with the arrows (as on Windows and Linux): the first agent of More.
  const firstInMore = await more.locator('option:not([value=""])').first().getAttribute('value');
  await app.keyboard.press('ArrowDown');
  await expect(more).toHaveValue(firstInMore!);
  await expect(brief).toHaveAttribute('data-target', firstInMore!);
  await expect(picker.getByRole('radio', { checked: true })).toHaveCount(0);
  // With no radio checked, the row's Tab stop is its first radio; ← from there picks the last.
  await app.keyboard.press('Shift+Tab');
  await expect(generic).toBeFocused();
  await expect(generic).toHaveAttribute('tabindex', '0');
  await app.keyboard.press('ArrowLeft');
  const last = picker.getByRole('radio', { name: rowNames.at(-1)!, exact: true });
  await expect(last).toHaveAttribute('aria-checked', 'true');
  await expect(last).toBeFocused();
  await expect(more).toHaveValue('');
  await app.keyboard.press('ArrowRight');
  await expect(generic).toHaveAttribute('aria-checked', 'true');
  // Escape from the menu goes back to the list, as from the format menu.
  await more.focus();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('region', { name: 'Brief preview' })).toHaveCount(0);
  await expect(app.getByRole('combobox', { name: 'Search sessions' })).toBeFocused();
});

test('the default target from Settings is in the row even when worked with least recently', async ({ app }) => {
  await waitForSessions(app, 10);
  const { counts, latest } = await storeFacts(app);
  // The agent worked with least recently (in More with the fixture stores), made the default.
  const fewest = [...AGENTS].sort((a, b) => latest.get(a)! - latest.get(b)! || counts.get(a)! - counts.get(b)! || AGENTS.indexOf(b) - AGENTS.indexOf(a))[0]!;
  await app.getByRole('button', { name: 'Settings' }).click();
  await app.getByLabel('Default target agent').selectOption(fewest);
  await app.getByRole('button', { name: 'Back to sessions' }).click();
  await openPreview(app);
  const picker = app.getByRole('radiogroup', { name: 'Target agent' });
  await expect(picker.getByRole('radio', { name: SHORT[fewest]!, exact: true })).toBeVisible();
  await expect(picker.getByRole('radio')).toHaveCount(5);
  await expect(app.getByRole('combobox', { name: 'More target agents' }).locator(`option[value="${fewest}"]`)).toHaveCount(0);
});
