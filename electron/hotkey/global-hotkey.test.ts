import { describe, expect, it } from 'vitest';
import { GlobalHotkey, type ShortcutRegistry } from './global-hotkey.js';

/** Behaves like globalShortcut: a combination has one owner; others can hold some already. */
class Registry implements ShortcutRegistry {
  readonly owned = new Map<string, () => void>();
  constructor(private readonly takenElsewhere: string[] = []) {}
  register(accelerator: string, callback: () => void) {
    if (this.takenElsewhere.includes(accelerator) || this.owned.has(accelerator)) return false;
    this.owned.set(accelerator, callback);
    return true;
  }
  unregister(accelerator: string) {
    this.owned.delete(accelerator);
  }
}

describe('GlobalHotkey', () => {
  it('registers the normalized accelerator and calls back on press', () => {
    const registry = new Registry();
    let presses = 0;
    const hotkey = new GlobalHotkey(registry, 'darwin', () => presses++);
    expect(hotkey.apply('cmdorctrl+shift+b')).toEqual({ accelerator: 'cmdorctrl+shift+b', display: '⇧⌘B', registered: true, error: null });
    registry.owned.get('CommandOrControl+Shift+B')?.();
    expect(presses).toBe(1);
    expect(hotkey.current()).toBe('CommandOrControl+Shift+B');
  });

  it('re-registers on change, releasing the old combination', () => {
    const registry = new Registry();
    const hotkey = new GlobalHotkey(registry, 'linux', () => undefined);
    hotkey.apply('Ctrl+Shift+B');
    hotkey.apply('Alt+F9');
    expect([...registry.owned.keys()]).toEqual(['Alt+F9']);
  });

  it('explains a combination another application holds', () => {
    const hotkey = new GlobalHotkey(new Registry(['Control+Shift+B']), 'linux', () => undefined);
    const status = hotkey.apply('Ctrl+Shift+B');
    expect(status).toMatchObject({ registered: false, display: 'Ctrl+Shift+B', error: expect.stringContaining('taken by another application') });
    expect(hotkey.current()).toBeNull();
  });

  it('explains an invalid accelerator without registering anything', () => {
    const registry = new Registry();
    const status = new GlobalHotkey(registry, 'win32', () => undefined).apply('Shift+B');
    expect(status).toMatchObject({ registered: false, display: null, error: expect.stringMatching(/not valid: .*Shift alone/) });
    expect(registry.owned.size).toBe(0);
  });

  it('reports a registry that throws', () => {
    const throwing: ShortcutRegistry = { register: () => { throw new Error('conversion failed'); }, unregister: () => undefined };
    expect(new GlobalHotkey(throwing, 'linux', () => undefined).apply('Ctrl+B').error).toMatch(/could not be registered: conversion failed/);
  });
});
