/** Platform facts the UI needs (shortcut labels), read once from the browser. */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const MOD_LABEL = IS_MAC ? '⌘' : 'Ctrl';
