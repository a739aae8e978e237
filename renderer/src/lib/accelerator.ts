/**
 * Hotkey recorder: turns a keydown into an Electron accelerator string
 * (https://www.electronjs.org/docs/latest/api/accelerator), e.g. `CommandOrControl+Shift+B`.
 */

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

const MODIFIER_KEYS = new Set(['Control', 'Meta', 'Alt', 'Shift', 'AltGraph', 'OS']);

const NAMED: Record<string, string> = {
  ' ': 'Space',
  Spacebar: 'Space',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Enter: 'Enter',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  Escape: 'Escape',
};

/** The key part of an accelerator, from `code` so Shift+2 records as `2`, not `@`. */
function keyName(event: KeyLike): string | null {
  if (MODIFIER_KEYS.has(event.key)) return null;
  const code = event.code;
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit[0-9]$/.test(code)) return code.slice(5);
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(code)) return code;
  if (/^Numpad[0-9]$/.test(code)) return `num${code.slice(6)}`;
  const named = NAMED[event.key];
  if (named) return named;
  const punctuation: Record<string, string> = {
    Minus: '-', Equal: '=', BracketLeft: '[', BracketRight: ']', Backslash: '\\', Semicolon: ';',
    Quote: "'", Comma: ',', Period: '.', Slash: '/', Backquote: '`',
  };
  return punctuation[code] ?? null;
}

export type RecordResult =
  | { kind: 'accelerator'; accelerator: string }
  | { kind: 'incomplete' }
  | { kind: 'cancel' }
  | { kind: 'invalid'; reason: string };

/**
 * One keydown while recording. A global hotkey needs at least one of Ctrl/Cmd/Alt, otherwise it
 * would steal an ordinary key from every app; Escape alone cancels.
 */
export function recordAccelerator(event: KeyLike, isMac: boolean): RecordResult {
  const key = keyName(event);
  const hasModifier = event.ctrlKey || event.metaKey || event.altKey;
  if (key === 'Escape' && !hasModifier && !event.shiftKey) return { kind: 'cancel' };
  if (key === null) return { kind: 'incomplete' };
  if (!hasModifier) return { kind: 'invalid', reason: 'Use at least one of Ctrl, Cmd or Alt with the key.' };
  const parts: string[] = [];
  // The platform's primary modifier becomes CommandOrControl so the setting travels across OSes.
  const primary = isMac ? event.metaKey : event.ctrlKey;
  if (primary) parts.push('CommandOrControl');
  if (isMac && event.ctrlKey) parts.push('Control');
  if (!isMac && event.metaKey) parts.push('Super');
  if (event.altKey) parts.push('Alt');
  if (event.shiftKey) parts.push('Shift');
  parts.push(key);
  return { kind: 'accelerator', accelerator: parts.join('+') };
}

/** A readable label for an accelerator on this platform. */
export function formatAccelerator(accelerator: string, isMac: boolean): string {
  return accelerator
    .split('+')
    .map((part) => {
      if (part === 'CommandOrControl' || part === 'CmdOrCtrl') return isMac ? '⌘' : 'Ctrl';
      if (part === 'Alt') return isMac ? '⌥' : 'Alt';
      if (part === 'Shift') return isMac ? '⇧' : 'Shift';
      if (part === 'Control') return isMac ? '⌃' : 'Ctrl';
      return part;
    })
    .join(isMac ? '' : '+');
}
