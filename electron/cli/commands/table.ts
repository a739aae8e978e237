/** Plain-text tables for terminal output: columns padded by display width, one line per row. */
import { displayWidth, padToWidth, truncateToWidth } from '../../../shared/display-width.js';

/** One line of `text`, at most `max` terminal columns (CJK and emoji count two). */
export function shorten(text: string, max: number): string {
  return truncateToWidth(text.replace(/\s+/g, ' ').trim(), max);
}

export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : padToWidth(c, widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
