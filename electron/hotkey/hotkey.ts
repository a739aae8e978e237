/**
 * Global-hotkey accelerators (Electron's syntax, e.g. `CommandOrControl+Shift+B`): parsing,
 * validation, a canonical spelling and the label each platform shows (⌘⇧B on macOS, Ctrl+Shift+B
 * elsewhere). Pure; no Electron import.
 */

export type Modifier = 'CommandOrControl' | 'Command' | 'Control' | 'Alt' | 'AltGr' | 'Shift' | 'Super';

/** Modifier spellings Electron accepts, mapped to one canonical name each. */
const MODIFIER_ALIASES: Record<string, Modifier> = {
  commandorcontrol: 'CommandOrControl',
  cmdorctrl: 'CommandOrControl',
  command: 'Command',
  cmd: 'Command',
  control: 'Control',
  ctrl: 'Control',
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGr',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
};

/** Canonical modifier order (macOS convention: ⌃⌥⇧⌘). */
const MODIFIER_ORDER: Modifier[] = ['CommandOrControl', 'Control', 'Alt', 'AltGr', 'Shift', 'Command', 'Super'];

const NAMED_KEYS: Record<string, string> = {
  plus: 'Plus', space: 'Space', tab: 'Tab', capslock: 'Capslock', numlock: 'Numlock', scrolllock: 'Scrolllock',
  backspace: 'Backspace', delete: 'Delete', insert: 'Insert', return: 'Enter', enter: 'Enter',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', home: 'Home', end: 'End', pageup: 'PageUp',
  pagedown: 'PageDown', escape: 'Escape', esc: 'Escape', volumeup: 'VolumeUp', volumedown: 'VolumeDown',
  volumemute: 'VolumeMute', medianexttrack: 'MediaNextTrack', mediaprevioustrack: 'MediaPreviousTrack',
  mediastop: 'MediaStop', mediaplaypause: 'MediaPlayPause', printscreen: 'PrintScreen',
  numdec: 'numdec', numadd: 'numadd', numsub: 'numsub', nummult: 'nummult', numdiv: 'numdiv',
};
const PUNCTUATION = new Set(Array.from(')!@#$%^&*(:;<=,_->.?/~`[]|\\}{"\''));

export interface Accelerator {
  modifiers: Modifier[];
  key: string;
}

export type ParseResult = { ok: true; accelerator: Accelerator; normalized: string } | { ok: false; error: string };

function normalizeKey(raw: string): string | null {
  if (/^[a-z]$/i.test(raw)) return raw.toUpperCase();
  if (/^[0-9]$/.test(raw)) return raw;
  const fn = /^f([1-9]|1[0-9]|2[0-4])$/i.exec(raw);
  if (fn) return `F${fn[1]}`;
  const num = /^num([0-9])$/i.exec(raw);
  if (num) return `num${num[1]}`;
  if (PUNCTUATION.has(raw)) return raw;
  return NAMED_KEYS[raw.toLowerCase()] ?? null;
}

/**
 * Parses an accelerator for use as a global hotkey. Requires exactly one key and at least one
 * modifier other than Shift (a Shift-only hotkey would swallow ordinary typing), except for F-keys.
 */
export function parseAccelerator(input: string): ParseResult {
  const text = input.trim();
  if (!text) return { ok: false, error: 'The hotkey is empty.' };
  // "+" as a key is written "Plus"; a trailing "++" means the user typed the plus key.
  const parts = text.endsWith('++') ? [...text.slice(0, -2).split('+'), 'Plus'] : text.split('+');
  if (parts.some((p) => p.trim() === '')) return { ok: false, error: `"${text}" has an empty part; write the plus key as "Plus".` };
  const modifiers: Modifier[] = [];
  let key: string | null = null;
  for (const part of parts.map((p) => p.trim())) {
    const modifier = MODIFIER_ALIASES[part.toLowerCase()];
    if (modifier) {
      if (key) return { ok: false, error: `Modifiers come before the key: "${part}" after "${key}".` };
      if (modifiers.includes(modifier)) return { ok: false, error: `"${part}" appears twice.` };
      modifiers.push(modifier);
      continue;
    }
    const normalized = normalizeKey(part);
    if (!normalized) return { ok: false, error: `"${part}" is not a key or modifier Electron knows.` };
    if (key) return { ok: false, error: `A hotkey has one key, not "${key}" and "${normalized}".` };
    key = normalized;
  }
  if (!key) return { ok: false, error: 'The hotkey needs a key after its modifiers (e.g. CommandOrControl+Shift+B).' };
  const isFunctionKey = /^F\d+$/.test(key);
  if (!isFunctionKey && !modifiers.some((m) => m !== 'Shift')) {
    return { ok: false, error: 'A global hotkey needs Ctrl/Cmd, Alt or Super (Shift alone would capture ordinary typing).' };
  }
  if (modifiers.includes('CommandOrControl') && (modifiers.includes('Command') || modifiers.includes('Control'))) {
    return { ok: false, error: 'CommandOrControl already means Command (macOS) or Control (elsewhere); do not combine them.' };
  }
  modifiers.sort((a, b) => MODIFIER_ORDER.indexOf(a) - MODIFIER_ORDER.indexOf(b));
  return { ok: true, accelerator: { modifiers, key }, normalized: [...modifiers, key].join('+') };
}

const MAC_SYMBOLS: Record<Modifier, string> = {
  CommandOrControl: '⌘', Command: '⌘', Control: '⌃', Alt: '⌥', AltGr: '⌥', Shift: '⇧', Super: '⌘',
};
const MAC_ORDER: Modifier[] = ['Control', 'Alt', 'AltGr', 'Shift', 'CommandOrControl', 'Command', 'Super'];
const OTHER_NAMES: Record<Modifier, string> = {
  CommandOrControl: 'Ctrl', Command: 'Super', Control: 'Ctrl', Alt: 'Alt', AltGr: 'AltGr', Shift: 'Shift', Super: 'Super',
};
const MAC_KEYS: Record<string, string> = {
  Enter: '↩', Escape: '⎋', Backspace: '⌫', Delete: '⌦', Tab: '⇥', Space: 'Space', Up: '↑', Down: '↓', Left: '←', Right: '→', Plus: '+',
};

/** How the hotkey is shown to the user on `platform`. */
export function displayAccelerator(accelerator: Accelerator, platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    const mods = [...accelerator.modifiers].sort((a, b) => MAC_ORDER.indexOf(a) - MAC_ORDER.indexOf(b));
    return mods.map((m) => MAC_SYMBOLS[m]).join('') + (MAC_KEYS[accelerator.key] ?? accelerator.key);
  }
  const names = accelerator.modifiers.map((m) => OTHER_NAMES[m]);
  const win = platform === 'win32';
  return [...names.map((n) => (win && n === 'Super' ? 'Win' : n)), accelerator.key === 'Plus' ? '+' : accelerator.key].join('+');
}

/** Display label for a settings string, or null when it does not parse. */
export function displayHotkey(text: string, platform: NodeJS.Platform): string | null {
  const parsed = parseAccelerator(text);
  return parsed.ok ? displayAccelerator(parsed.accelerator, platform) : null;
}
