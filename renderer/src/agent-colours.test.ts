/**
 * Every agent's badge has its own colours in both themes, legible (WCAG AA, 4.5:1 for the badge's
 * small text) on its own background: read off styles.css, where each colour is defined once as
 * `light-dark(<light>, <dark>)` (the scheme follows the system unless Settings chose one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../shared/model.js';

const css = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'styles.css'), 'utf8');

const THEMES = { light: 0, dark: 1 } as const;

function colour(theme: keyof typeof THEMES, name: string): [number, number, number] {
  const m = new RegExp(`--${name}:\\s*light-dark\\(#([0-9a-f]{6}),\\s*#([0-9a-f]{6})\\);`, 'i').exec(css);
  if (!m) throw new Error(`styles.css: no --${name} with a light and a dark colour`);
  const hex = m[1 + THEMES[theme]]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('agent badge colours', () => {
  for (const agent of AGENTS) {
    it(`${agent}: a badge rule, and text legible on its background in every theme`, () => {
      expect(css).toContain(`.agent-badge[data-agent='${agent}'] { color: var(--${agent}); background: var(--${agent}-bg); }`);
      for (const theme of ['light', 'dark'] as const) {
        expect(contrast(colour(theme, agent), colour(theme, `${agent}-bg`)), `${agent} in ${theme}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('no two agents share a badge colour in a theme', () => {
    for (const theme of ['light', 'dark'] as const) {
      const seen = AGENTS.map((a) => colour(theme, a).join(','));
      expect(new Set(seen).size, theme).toBe(AGENTS.length);
    }
  });
});
