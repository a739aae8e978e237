import { describe, expect, it } from 'vitest';
import { isTerminalSafe, sanitizeTerminalText } from './terminal-text.js';

/** Every character a terminal acts on, as transcripts deliver them. */
const ATTACKS = {
  clearScreen: '\x1b[2J\x1b[H',
  osc52Clipboard: '\x1b]52;c;cm0gLXJmIH4K\x07',
  osc8Link: '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
  crOverwrite: 'rm -rf ~\rls',
  c1Csi: '\x9b31mred\x9b0m',
  c1Osc: '\x9d52;c;eA==\x9c',
  bidi: 'admin\u202e\u2066txt.exe\u2069\u202c',
  del: 'a\x7fb',
  backspace: 'safe\b\b\b\bevil',
  lineSeparator: 'a\u2028b\u2029c',
};

describe('sanitizeTerminalText', () => {
  it.each(Object.entries(ATTACKS))('leaves nothing a terminal acts on: %s', (_name, attack) => {
    const out = sanitizeTerminalText(attack);
     
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(isTerminalSafe(out)).toBe(true);
    expect(out.length).toBeGreaterThanOrEqual(attack.length); // replaced visibly, never dropped
  });

  it('shows each replaced character: control pictures for C0, JSON-style escapes for the rest', () => {
    expect(sanitizeTerminalText('\x1b[2J')).toBe('␛[2J');
    expect(sanitizeTerminalText('a\rb\x07')).toBe('a␍b␇');
    expect(sanitizeTerminalText('\x9b1m\x7f')).toBe('\\u009b1m\\u007f');
    expect(sanitizeTerminalText('x\u202ey')).toBe('x\\u202ey');
  });

  it('keeps newlines and tabs (CRLF as LF) in multi-line text, and makes them visible in one cell', () => {
    expect(sanitizeTerminalText('a\tb\r\nc\n')).toBe('a\tb\nc\n');
    expect(sanitizeTerminalText('a\tb\r\nc\n', { multiline: false })).toBe('a␉b␍␊c␊');
  });

  it('leaves ordinary text alone: unicode, emoji, RTL script, marks', () => {
    const text = 'Résumé 日本語 👩‍💻 مرحبا שלום \u200d é ✓';
    expect(sanitizeTerminalText(text)).toBe(text);
  });

  it('turns JSON into JSON with the very same data (what --json output relies on)', () => {
    const everything = Array.from({ length: 0x2100 }, (_, i) => String.fromCharCode(i)).join('') + Object.values(ATTACKS).join('');
    const value = { title: everything, nested: [everything, { k: everything }] };
    for (const indent of [undefined, 2]) {
      const json = sanitizeTerminalText(JSON.stringify(value, null, indent));
      expect(isTerminalSafe(json)).toBe(true);
      expect(JSON.parse(json)).toEqual(value);
    }
  });
});
