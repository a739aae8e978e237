/** DOM facts the keyboard map needs: what kind of element has focus, and whether text is selected. */
import type { KeyContext } from './keyboard.js';

export const SEARCH_INPUT_ID = 'baton-search';
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'number', 'url', 'email', 'password', 'tel']);

export function focusKind(element: Element | null): KeyContext['focus'] {
  if (!element || element === document.body) return 'none';
  if (element.id === SEARCH_INPUT_ID) return 'search';
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return 'text';
  if (element instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(element.type) ? 'text' : 'control';
  if (element instanceof HTMLElement && element.isContentEditable) return 'text';
  if (element instanceof HTMLButtonElement || element instanceof HTMLAnchorElement) {
    return 'control';
  }
  const role = element.getAttribute('role');
  if (role === 'radio' || role === 'switch' || role === 'tab' || role === 'button') return 'control';
  return 'none';
}

export function hasTextSelection(): boolean {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) {
    try {
      if (active.selectionStart !== active.selectionEnd) return true;
    } catch {
      // inputs without selection support (number)
    }
  }
  const selection = window.getSelection();
  return !!selection && !selection.isCollapsed && selection.toString().length > 0;
}

export function focusSearch(): void {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input instanceof HTMLInputElement) {
    input.focus();
    input.select();
  }
}
