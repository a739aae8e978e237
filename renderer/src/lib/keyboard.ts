/**
 * The keyboard map, as a pure function from (where the user is, which key) to a command, so the
 * whole keyboard-only flow is unit-tested without a DOM. The App turns commands into store actions.
 */

export type KeyCommand =
  | { type: 'move'; delta: number }
  | { type: 'move-to'; position: 'first' | 'last' }
  | { type: 'open' }
  | { type: 'back' }
  | { type: 'clear-query' }
  | { type: 'close' }
  | { type: 'copy' }
  | { type: 'focus-search' }
  | { type: 'settings' }
  | { type: 'cycle-target'; delta: number }
  | { type: 'cycle-format'; delta: number }
  | { type: 'toggle-raw' }
  | { type: 'open-in-agent' };

export interface KeyContext {
  view: 'list' | 'preview' | 'settings';
  /**
   * What has focus: the search box, another text field (selects count: they type-ahead), a
   * control that uses Enter/Space/arrows (button, radio, checkbox), or nothing in particular.
   */
  focus: 'search' | 'text' | 'control' | 'none';
  /** Some text is selected (then Ctrl/Cmd+C keeps its usual meaning). */
  hasTextSelection: boolean;
  query: string;
  /** A dialog or form is open: it handles its own keys. */
  modal: boolean;
}

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

const PAGE = 10;

export function keyCommand(ctx: KeyContext, input: KeyInput, isMac: boolean): KeyCommand | null {
  const mod = isMac ? input.metaKey : input.ctrlKey;
  const plain = !input.ctrlKey && !input.metaKey && !input.altKey;
  const key = input.key;

  if (mod && key === ',') return { type: 'settings' };
  if (ctx.modal) return null;
  if (mod && (key === 'k' || key === 'f') && ctx.view !== 'settings') return { type: 'focus-search' };
  if (mod && key.toLowerCase() === 'c' && !input.shiftKey && !ctx.hasTextSelection && ctx.view !== 'settings') {
    return { type: 'copy' };
  }

  if (ctx.view === 'settings') return key === 'Escape' && ctx.focus !== 'text' ? { type: 'back' } : null;

  // Text fields (and selects) own their keys; Escape leaves them.
  if (ctx.focus === 'text') {
    if (key !== 'Escape') return null;
    return ctx.view === 'list' ? { type: 'focus-search' } : { type: 'back' };
  }
  // Buttons and radios own Enter, Space and arrows; in the list, Escape returns to the search.
  if (ctx.focus === 'control' && ctx.view === 'list') return key === 'Escape' ? { type: 'focus-search' } : null;

  if (ctx.view === 'list') {
    if (key === 'ArrowDown' && plain) return { type: 'move', delta: 1 };
    if (key === 'ArrowUp' && plain) return { type: 'move', delta: -1 };
    if (key === 'PageDown') return { type: 'move', delta: PAGE };
    if (key === 'PageUp') return { type: 'move', delta: -PAGE };
    if (key === 'Enter' && plain) return { type: 'open' };
    if (key === 'Escape') return ctx.query ? { type: 'clear-query' } : { type: 'close' };
    if (ctx.focus === 'search') return null; // everything else is typing
    if (key === 'Home') return { type: 'move-to', position: 'first' };
    if (key === 'End') return { type: 'move-to', position: 'last' };
    if (plain && key === '/') return { type: 'focus-search' };
    if (plain && key === 'c') return { type: 'copy' };
    if (plain && key === 'j') return { type: 'move', delta: 1 };
    if (plain && key === 'k') return { type: 'move', delta: -1 };
    return null;
  }

  // Preview: letters are free even on a focused button or radio, which only use Enter/Space/arrows.
  if (key === 'Escape' || (key === 'ArrowLeft' && input.altKey)) return { type: 'back' };
  if (ctx.focus === 'search') return null;
  if (!plain) return null;
  if (key === 'c') return { type: 'copy' };
  if (key === 't') return { type: 'cycle-target', delta: 1 };
  if (key === 'T') return { type: 'cycle-target', delta: -1 };
  if (key === 'f') return { type: 'cycle-format', delta: 1 };
  if (key === 'F') return { type: 'cycle-format', delta: -1 };
  if (key === 'r') return { type: 'toggle-raw' };
  if (key === 'o') return { type: 'open-in-agent' };
  if (key === '/') return { type: 'focus-search' };
  return null;
}

/** Cycles through a list, wrapping at both ends. */
export function cycle<T>(list: readonly T[], current: T, delta: number): T {
  const index = list.indexOf(current);
  const next = ((index === -1 ? 0 : index + delta) % list.length + list.length) % list.length;
  return list[next] as T;
}

/**
 * The radio an arrow key moves to in a radio group of `count` whose checked one is `index` (-1:
 * none, the value was picked elsewhere): wraps at both ends; from none, forward is the first and
 * back the last.
 */
export function stepRadio(index: number, delta: number, count: number): number {
  if (index === -1) return delta > 0 ? 0 : count - 1;
  return (((index + delta) % count) + count) % count;
}

/** Clamps a cursor into a list of `count` rows (-1 when empty). */
export function clampCursor(cursor: number, count: number): number {
  if (count === 0) return -1;
  return Math.min(Math.max(cursor, 0), count - 1);
}
