/** Formatting and reading of usage numbers for the meters and the usage panel. */

/** 1234 → "1.2k", 2_500_000 → "2.5M". */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

/** "$0.23", "$12.40", "<$0.01"; null (no model of these requests has a price) → "no price". */
export function formatCost(usd: number | null): string {
  if (usd === null) return 'no price';
  if (usd > 0 && usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/** How full a context is, for colour: ok below 70 %, high from 70 %, full from the alert threshold. */
export function fillLevel(percent: number, threshold = 85): 'ok' | 'high' | 'full' {
  if (percent >= threshold) return 'full';
  if (percent >= 70) return 'high';
  return 'ok';
}

/**
 * Compactions: a request whose prompt is much smaller than the one before it (under 60 %, and the
 * one before was big) means the agent summarized its history. Returns their indexes in `history`.
 */
export function compactionPoints(history: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < history.length; i++) {
    const before = history[i - 1]!;
    const now = history[i]!;
    if (before >= 20_000 && now < before * 0.6) out.push(i);
  }
  return out;
}

/** Polyline points for a sparkline of `values` in a width × height box (max at the top). */
export function sparklinePoints(values: readonly number[], width: number, height: number, max?: number): string {
  if (values.length === 0) return '';
  const top = Math.max(1, max ?? Math.max(...values));
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => `${round(i * step)},${round(height - (Math.min(v, top) / top) * height)}`).join(' ');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** "19:00" in the local time zone (reset times in messages and the tray). */
export function localClock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** A usage window's name: Codex reports its 5-hour and weekly windows by minutes. */
export function windowName(windowMinutes: number | null, name: string): string {
  if (windowMinutes === 300) return '5-hour window';
  if (windowMinutes === 10_080) return 'weekly window';
  if (windowMinutes !== null) return windowMinutes % 1440 === 0 ? `${windowMinutes / 1440}-day window` : windowMinutes % 60 === 0 ? `${windowMinutes / 60}-hour window` : `${windowMinutes}-minute window`;
  return `${name} window`;
}
