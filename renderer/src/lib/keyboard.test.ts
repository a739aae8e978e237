import { describe, expect, it } from 'vitest';
import { BRIEF_TARGETS } from '../../../shared/settings.js';
import { clampCursor, cycle, keyCommand, stepRadio, type KeyContext, type KeyInput } from './keyboard.js';

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});
const list = (over: Partial<KeyContext> = {}): KeyContext => ({
  view: 'list',
  focus: 'search',
  hasTextSelection: false,
  query: '',
  modal: false,
  ...over,
});

describe('keyCommand in the list', () => {
  it('moves, opens and pages while typing in the search box', () => {
    expect(keyCommand(list(), key('ArrowDown'), false)).toEqual({ type: 'move', delta: 1 });
    expect(keyCommand(list(), key('ArrowUp'), false)).toEqual({ type: 'move', delta: -1 });
    expect(keyCommand(list(), key('PageDown'), false)).toEqual({ type: 'move', delta: 10 });
    expect(keyCommand(list(), key('Enter'), false)).toEqual({ type: 'open' });
  });

  it('leaves letters, Home/End and shortcuts-looking keys to the search box', () => {
    expect(keyCommand(list(), key('c'), false)).toBeNull();
    expect(keyCommand(list(), key('j'), false)).toBeNull();
    expect(keyCommand(list(), key('Home'), false)).toBeNull();
  });

  it('uses single keys when the list itself has focus', () => {
    expect(keyCommand(list({ focus: 'none' }), key('c'), false)).toEqual({ type: 'copy' });
    expect(keyCommand(list({ focus: 'none' }), key('j'), false)).toEqual({ type: 'move', delta: 1 });
    expect(keyCommand(list({ focus: 'none' }), key('End'), false)).toEqual({ type: 'move-to', position: 'last' });
    expect(keyCommand(list({ focus: 'none' }), key('/'), false)).toEqual({ type: 'focus-search' });
  });

  it('Escape clears the query first, then closes', () => {
    expect(keyCommand(list({ query: 'git' }), key('Escape'), false)).toEqual({ type: 'clear-query' });
    expect(keyCommand(list(), key('Escape'), false)).toEqual({ type: 'close' });
  });

  it('copies with Ctrl+C (Cmd+C on macOS) unless text is selected', () => {
    expect(keyCommand(list(), key('c', { ctrlKey: true }), false)).toEqual({ type: 'copy' });
    expect(keyCommand(list(), key('c', { metaKey: true }), true)).toEqual({ type: 'copy' });
    expect(keyCommand(list(), key('c', { metaKey: true }), false)).toBeNull();
    expect(keyCommand(list({ hasTextSelection: true }), key('c', { ctrlKey: true }), false)).toBeNull();
  });

  it('leaves keys to other controls, except Escape which returns to the search', () => {
    expect(keyCommand(list({ focus: 'control' }), key('ArrowDown'), false)).toBeNull();
    expect(keyCommand(list({ focus: 'control' }), key('Enter'), false)).toBeNull();
    expect(keyCommand(list({ focus: 'control' }), key('Escape'), false)).toEqual({ type: 'focus-search' });
    expect(keyCommand(list({ focus: 'text' }), key('ArrowDown'), false)).toBeNull();
    expect(keyCommand(list({ focus: 'text' }), key('Escape'), false)).toEqual({ type: 'focus-search' });
  });
});

describe('keyCommand in the preview and settings', () => {
  const preview = (over: Partial<KeyContext> = {}) => list({ view: 'preview', focus: 'none', ...over });

  it('has single-key actions', () => {
    expect(keyCommand(preview(), key('c'), false)).toEqual({ type: 'copy' });
    expect(keyCommand(preview(), key('t'), false)).toEqual({ type: 'cycle-target', delta: 1 });
    expect(keyCommand(preview(), key('T', { shiftKey: true }), false)).toEqual({ type: 'cycle-target', delta: -1 });
    expect(keyCommand(preview(), key('f'), false)).toEqual({ type: 'cycle-format', delta: 1 });
    expect(keyCommand(preview(), key('r'), false)).toEqual({ type: 'toggle-raw' });
    expect(keyCommand(preview(), key('o'), false)).toEqual({ type: 'open-in-agent' });
    expect(keyCommand(preview(), key('Escape'), false)).toEqual({ type: 'back' });
  });

  it('does not steal Enter from buttons or keys from open forms', () => {
    expect(keyCommand(preview({ focus: 'control' }), key('Enter'), false)).toBeNull();
    expect(keyCommand(preview({ focus: 'control' }), key('ArrowRight'), false)).toBeNull();
    expect(keyCommand(preview({ focus: 'control' }), key('c'), false)).toEqual({ type: 'copy' });
    expect(keyCommand(preview({ focus: 'control' }), key('Escape'), false)).toEqual({ type: 'back' });
    expect(keyCommand(preview({ focus: 'text' }), key('Escape'), false)).toEqual({ type: 'back' });
    expect(keyCommand(preview({ focus: 'text' }), key('c'), false)).toBeNull();
    expect(keyCommand(preview({ modal: true }), key('Escape'), false)).toBeNull();
    expect(keyCommand(preview({ modal: true }), key('c', { ctrlKey: true }), false)).toBeNull();
  });

  it('opens settings from anywhere, and Escape leaves settings unless typing', () => {
    expect(keyCommand(preview({ modal: true }), key(',', { ctrlKey: true }), false)).toEqual({ type: 'settings' });
    const settings = list({ view: 'settings', focus: 'none' });
    expect(keyCommand(settings, key('Escape'), false)).toEqual({ type: 'back' });
    expect(keyCommand({ ...settings, focus: 'text' }, key('Escape'), false)).toBeNull();
    expect(keyCommand(settings, key('c', { ctrlKey: true }), false)).toBeNull();
  });
});

describe('stepRadio (arrow keys in a radio group)', () => {
  it('wraps at both ends', () => {
    expect(stepRadio(0, 1, 5)).toBe(1);
    expect(stepRadio(4, 1, 5)).toBe(0);
    expect(stepRadio(0, -1, 5)).toBe(4);
  });
  it('with no radio checked (picked in "More"), forward goes to the first and back to the last', () => {
    expect(stepRadio(-1, 1, 5)).toBe(0);
    expect(stepRadio(-1, -1, 5)).toBe(4);
  });
});

describe('cycle and clampCursor', () => {
  it('wraps both ways', () => {
    const last = BRIEF_TARGETS[BRIEF_TARGETS.length - 1]!; // the newest agent
    expect(cycle(BRIEF_TARGETS, last, 1)).toBe('generic');
    expect(cycle(BRIEF_TARGETS, 'generic', -1)).toBe(last);
    expect(cycle(BRIEF_TARGETS, 'claude', 1)).toBe('codex');
  });

  it('keeps the cursor inside the list', () => {
    expect(clampCursor(5, 3)).toBe(2);
    expect(clampCursor(-4, 3)).toBe(0);
    expect(clampCursor(0, 0)).toBe(-1);
  });
});
