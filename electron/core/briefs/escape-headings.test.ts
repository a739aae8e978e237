import { describe, expect, it } from 'vitest';
import { escapeHeadings } from './render-markdown.js';

describe("a quoted message's headings in the excerpt", () => {
  it('are escaped so they never read as the brief’s own sections', () => {
    expect(escapeHeadings('Task:\n## Context\nUse it.\n   # Top\n#nospace')).toBe('Task:\n\\## Context\nUse it.\n   \\# Top\n#nospace');
  });

  it('stay as written inside code fences (shell comments, Markdown samples)', () => {
    const text = '```sh\n# install\nnpm ci\n```\n## After\n~~~\n## sample\n~~~';
    expect(escapeHeadings(text)).toBe('```sh\n# install\nnpm ci\n```\n\\## After\n~~~\n## sample\n~~~');
  });
});
