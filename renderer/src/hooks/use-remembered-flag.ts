import { useCallback, useState } from 'react';

/**
 * A boolean UI choice (a panel folded or open) kept in localStorage, so it survives closing the
 * popover and restarting. Storage can be unavailable (private mode, a sandbox): then it lives
 * for this page only.
 */
export function useRememberedFlag(key: string, initial: boolean): [boolean, (next: boolean) => void] {
  const [value, setValue] = useState(() => read(key) ?? initial);
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Not remembered; still applied.
      }
    },
    [key],
  );
  return [value, set];
}

function read(key: string): boolean | null {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? null : stored === '1';
  } catch {
    return null;
  }
}
