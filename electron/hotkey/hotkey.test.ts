import { describe, expect, it } from 'vitest';
import { displayHotkey, parseAccelerator } from './hotkey.js';

describe('parseAccelerator', () => {
  it.each([
    ['CommandOrControl+Shift+B', 'CommandOrControl+Shift+B'],
    ['cmdorctrl+shift+b', 'CommandOrControl+Shift+B'],
    ['Shift+CmdOrCtrl+b', 'CommandOrControl+Shift+B'],
    ['Ctrl+Option+Space', 'Control+Alt+Space'],
    ['Meta+Return', 'Super+Enter'],
    ['Alt+F4', 'Alt+F4'],
    ['F13', 'F13'],
    ['Ctrl++', 'Control+Plus'],
    ['Control+Alt+num5', 'Control+Alt+num5'],
    ['Cmd+/', 'Command+/'],
  ])('%s → %s', (input, normalized) => {
    const result = parseAccelerator(input);
    expect(result).toMatchObject({ ok: true, normalized });
  });

  it.each([
    ['', /empty/],
    ['B', /needs Ctrl\/Cmd, Alt or Super/],
    ['Shift+B', /Shift alone/],
    ['Ctrl+Shift', /needs a key/],
    ['Ctrl+A+B', /one key/],
    ['Ctrl+Hyper+B', /"Hyper" is not a key/],
    ['Ctrl+Ctrl+B', /appears twice/],
    ['B+Ctrl', /Modifiers come before the key/],
    ['CmdOrCtrl+Control+B', /do not combine/],
    ['Ctrl+F25', /not a key/],
    ['Ctrl+ +B', /empty part/],
  ])('rejects %j with a clear message', (input, message) => {
    const result = parseAccelerator(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('displayHotkey', () => {
  it('uses symbols in Apple’s menu order (⌃⌥⇧⌘) on macOS', () => {
    expect(displayHotkey('CommandOrControl+Shift+B', 'darwin')).toBe('⇧⌘B');
    expect(displayHotkey('Shift+Alt+Control+Cmd+Enter', 'darwin')).toBe('⌃⌥⇧⌘↩');
  });

  it('uses names elsewhere', () => {
    expect(displayHotkey('CommandOrControl+Shift+B', 'linux')).toBe('Ctrl+Shift+B');
    expect(displayHotkey('Super+Alt+Plus', 'win32')).toBe('Alt+Win++');
    expect(displayHotkey('nonsense+', 'linux')).toBeNull();
  });
});
