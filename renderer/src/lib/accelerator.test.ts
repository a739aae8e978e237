import { describe, expect, it } from 'vitest';
import { formatAccelerator, recordAccelerator, type KeyLike } from './accelerator.js';

const press = (key: string, code: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('recordAccelerator', () => {
  it('records the platform primary modifier as CommandOrControl', () => {
    expect(recordAccelerator(press('B', 'KeyB', { ctrlKey: true, shiftKey: true }), false)).toEqual({
      kind: 'accelerator',
      accelerator: 'CommandOrControl+Shift+B',
    });
    expect(recordAccelerator(press('b', 'KeyB', { metaKey: true, altKey: true }), true)).toEqual({
      kind: 'accelerator',
      accelerator: 'CommandOrControl+Alt+B',
    });
  });

  it('uses the physical key, so Shift+2 is 2 and Space is named', () => {
    expect(recordAccelerator(press('@', 'Digit2', { ctrlKey: true, shiftKey: true }), false)).toEqual({
      kind: 'accelerator',
      accelerator: 'CommandOrControl+Shift+2',
    });
    expect(recordAccelerator(press(' ', 'Space', { altKey: true }), false)).toEqual({ kind: 'accelerator', accelerator: 'Alt+Space' });
  });

  it('waits for a key after modifiers, refuses bare keys and cancels on Escape', () => {
    expect(recordAccelerator(press('Control', 'ControlLeft', { ctrlKey: true }), false)).toEqual({ kind: 'incomplete' });
    expect(recordAccelerator(press('b', 'KeyB'), false).kind).toBe('invalid');
    expect(recordAccelerator(press('B', 'KeyB', { shiftKey: true }), false).kind).toBe('invalid');
    expect(recordAccelerator(press('Escape', 'Escape'), false)).toEqual({ kind: 'cancel' });
  });

  it('formats for display', () => {
    expect(formatAccelerator('CommandOrControl+Shift+B', false)).toBe('Ctrl+Shift+B');
    expect(formatAccelerator('CommandOrControl+Shift+B', true)).toBe('⌘⇧B');
  });
});
