/**
 * Search snippets mark matches with `[[` and `]]`. They are split into plain segments here and
 * rendered as <mark> elements by React, so transcript text is never interpreted as HTML.
 */

export interface SnippetPart {
  text: string;
  match: boolean;
}

export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const open = rest.indexOf('[[');
    const close = open === -1 ? -1 : rest.indexOf(']]', open + 2);
    // No complete marker pair left: the remainder is literal text (an unmatched `[[` included).
    if (open === -1 || close === -1) {
      push(parts, rest, false);
      break;
    }
    push(parts, rest.slice(0, open), false);
    push(parts, rest.slice(open + 2, close), true);
    rest = rest.slice(close + 2);
  }
  return parts;
}

function push(parts: SnippetPart[], text: string, match: boolean): void {
  if (!text) return;
  const last = parts[parts.length - 1];
  if (last && last.match === match) last.text += text;
  else parts.push({ text, match });
}

/** The snippet as plain text (markers removed), for titles and accessible labels. */
export function snippetText(snippet: string): string {
  return parseSnippet(snippet)
    .map((p) => p.text)
    .join('');
}
