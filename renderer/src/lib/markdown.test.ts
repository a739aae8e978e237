import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders ordinary Markdown', () => {
    const html = renderMarkdown('## Goal\n\nRun `git status` and **read** the README.\n\n- one\n- two');
    expect(html).toContain('<h2>Goal</h2>');
    expect(html).toContain('<code>git status</code>');
    expect(html).toContain('<strong>read</strong>');
    expect(html).toContain('<li>one</li>');
  });

  it('escapes raw HTML from transcripts, block and inline', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\ntext <img src=x onerror="alert(2)"> more');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('drops unsafe links and remote images but keeps their text', () => {
    const html = renderMarkdown('[click](javascript:alert(1)) [ok](https://example.com) ![logo](https://tracker.example/p.png)');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('click');
    expect(html).toContain('<a href="https://example.com"');
    expect(html).toContain('rel="noreferrer noopener"');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image: logo]');
  });

  it('escapes HTML inside code blocks instead of running it', () => {
    const html = renderMarkdown('```\n<iframe src="x"></iframe>\n```');
    expect(html).toContain('&lt;iframe');
    expect(html).not.toContain('<iframe');
  });
});
