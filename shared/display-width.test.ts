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

  it('gives printable ASCII (counted without segmenting) the same columns as any other text', () => {
    const ascii = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
    expect(displayWidth(ascii)).toBe(95);
    // One non-ASCII character sends the same text through the segmenter: only that character's width is added.
    expect(displayWidth(`${ascii}é`)).toBe(96);
    expect(displayWidth(`${ascii}丸`)).toBe(97);
    expect(displayWidth('tab\there\u0007')).toBe(7); // control characters take no column
    expect(truncateToWidth('session-index-writer', 8)).toBe('session…');
    expect(truncateToWidth('session-index-writer', 8)).toBe(truncateToWidth('session-index-writeré', 8));
    expect(truncateToWidth('abc', 1)).toBe('…');
  });
});
