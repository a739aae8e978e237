import { useEffect } from 'react';
import { useApp } from '../store/context.js';

/** Light, dark or the system's choice, as `data-theme` on <html> (CSS does the rest). */
export function useTheme(): void {
  const theme = useApp((s) => s.settingsView?.settings.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
}
