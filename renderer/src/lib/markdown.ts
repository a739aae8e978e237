/**
 * Briefs quote transcripts, and transcripts hold anything: so the brief's Markdown is rendered
 * with raw HTML escaped (shown as text, never parsed), links limited to safe schemes and images
 * reduced to their alt text (no remote fetches from a local-first app).
 */
import { Marked, type Tokens } from 'marked';

const SAFE_LINK = /^(https?:|mailto:|#)/i;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_LINK.test(href.trim())) return label;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${titleAttr} target="_blank" rel="noreferrer noopener">${label}</a>`;
    },
    image({ text }: Tokens.Image): string {
      return escapeHtml(text ? `[image: ${text}]` : '[image]');
    },
  },
});

/** Markdown to HTML that is safe to insert: every tag in it was produced by marked itself. */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
