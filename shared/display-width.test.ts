import { describe, expect, it } from 'vitest';
import { displayWidth, padToWidth, truncateToWidth } from './display-width.js';

describe('displayWidth', () => {
  it('counts CJK and emoji as two columns, combining marks and joiners as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('丸め用語')).toBe(8);
    expect(displayWidth('こんにちは！')).toBe(12); // fullwidth ! too
    expect(displayWidth('✨')).toBe(2);
    expect(displayWidth('🙏')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2); // skin tone: one cell
    expect(displayWidth('👩‍💻')).toBe(2); // joined: one cell
    expect(displayWidth('🇯🇵')).toBe(2);
    expect(displayWidth('é')).toBe(1); // e + combining acute
    expect(displayWidth('©')).toBe(1); // text presentation
    expect(displayWidth('한국어')).toBe(6);
  });

  it('truncates and pads by columns without splitting a character', () => {
    expect(truncateToWidth('丸め用語の確認', 7)).toBe('丸め用…');
    expect(displayWidth(truncateToWidth('丸め用語の確認', 7))).toBeLessThanOrEqual(7);
    expect(truncateToWidth('👩‍💻👩‍💻👩‍💻', 5)).toBe('👩‍💻👩‍💻…');
    expect(truncateToWidth('short', 10)).toBe('short');
    expect(padToWidth('丸め', 6)).toBe('丸め  ');
  });
});
