/** Plain-text tables for terminal output: columns padded by display width, one line per row. */
import { displayWidth, padToWidth, truncateToWidth } from '../../../shared/display-width.js';
import { sanitizeTerminalText } from '../../../shared/terminal-text.js';

/** One cell's text: control characters made visible first, so widths count what the terminal shows. */
function cellText(text: string): string {
  return sanitizeTerminalText(text, { multiline: false });
}

/**
 * One line of `text`, at most `max` terminal columns (CJK and emoji count two). Sanitised before it
 * is cut, so a cut can never leave half an escape sequence, and cut by grapheme, never inside one.
 */
export function shorten(text: string, max: number): string {
  return truncateToWidth(cellText(text.replace(/\s+/g, ' ').trim()), max);
}

export function formatTable(header: string[], rows: string[][]): string {
  const safeRows = rows.map((r) => r.map(cellText));
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...safeRows.map((r) => displayWidth(r[i] ?? ''))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : padToWidth(c, widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...safeRows.map(line)].join('\n')}\n`;
}
