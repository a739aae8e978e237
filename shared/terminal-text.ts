/**
 * Text from sessions (titles, prompts, snippets, paths, briefs) made safe to print in a terminal:
 * no character that a terminal or a later reader acts on instead of showing. Each one is replaced by
 * a visible stand-in, never silently dropped, so the reader still sees that something was there:
 *
 * - C0 controls (ESC, CR, BEL, backspace…) → their Unicode control pictures (␛ ␍ ␇ ␈).
 *   `\n` and `\t` are kept in multi-line text; a CRLF line end becomes `\n`.
 * - DEL, the C1 controls (U+0080–U+009F: CSI, OSC, ST as single bytes), the bidi embeddings, overrides and
 *   isolates (U+202A–U+202E, U+2066–U+2069) and the line/paragraph separators (U+2028, U+2029) →
 *   the six characters `\u009b`. Inside a JSON string that is the JSON escape of the very same
 *   character, so sanitised JSON still parses to the original data.
 *
 * Pure: the renderer can use it too.
 */

export interface TerminalTextOptions {
  /** Keep `\n` and `\t` (a brief, a table, a list of lines). Default true; false for one cell. */
  multiline?: boolean;
}

// One pass over everything that may need replacing; the callback decides.
 
const UNSAFE = /\r\n|[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function replacement(ch: string, multiline: boolean): string {
  if (ch === '\r\n') return multiline ? '\n' : '␍␊';
  const code = ch.charCodeAt(0);
  if (multiline && (ch === '\n' || ch === '\t')) return ch;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every terminal-active character replaced by a visible stand-in (see above). */
export function sanitizeTerminalText(text: string, options: TerminalTextOptions = {}): string {
  const multiline = options.multiline ?? true;
  return text.replace(UNSAFE, (ch) => replacement(ch, multiline));
}

/** True when `text` holds nothing {@link sanitizeTerminalText} would replace (tabs and newlines allowed). */
export function isTerminalSafe(text: string): boolean {
  return sanitizeTerminalText(text) === text;
}
