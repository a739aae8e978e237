/** Window-level keys: the pure keyboard map (lib/keyboard.ts) applied to the store. */
import { useEffect } from 'react';
import { BRIEF_TARGETS } from '../../../shared/settings.js';
import { cycle, keyCommand } from '../lib/keyboard.js';
import { focusKind, focusSearch, hasTextSelection } from '../lib/focus.js';
import { IS_MAC } from '../lib/platform.js';
import { useAppStore } from '../store/context.js';
import { BRIEF_FORMATS } from '../store/types.js';

export function useKeyboard(): void {
  const store = useAppStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const state = store.getState();
      const command = keyCommand(
        {
          view: state.view,
          focus: focusKind(document.activeElement),
          hasTextSelection: hasTextSelection(),
          query: state.query,
          modal: document.querySelector('[data-modal="true"]') !== null,
        },
        event,
        IS_MAC,
      );
      if (!command) return;
      event.preventDefault();
      switch (command.type) {
        case 'move':
          state.moveCursor(command.delta);
          break;
        case 'move-to':
          state.setCursor(command.position === 'first' ? 0 : state.rows.length - 1);
          break;
        case 'open':
          state.openPreview();
          break;
        case 'back':
          if (state.view === 'preview') state.closePreview();
          else state.setView('list');
          requestAnimationFrame(focusSearch);
          break;
        case 'clear-query':
          state.setQuery('');
          break;
        case 'close':
          // In Electron the main process hides the popover on close; in a browser tab nothing to do.
          if (state.transportKind === 'ipc') window.close();
          break;
        case 'copy':
          void state.copyBrief();
          break;
        case 'focus-search':
          if (state.view !== 'list') {
            if (state.view === 'preview') state.closePreview();
            else state.setView('list');
            requestAnimationFrame(focusSearch);
          } else focusSearch();
          break;
        case 'settings':
          state.setView(state.view === 'settings' ? 'list' : 'settings');
          break;
        case 'cycle-target':
          state.setTarget(cycle(BRIEF_TARGETS, state.target, command.delta));
          break;
        case 'cycle-format':
          state.setFormat(cycle(BRIEF_FORMATS, state.format, command.delta));
          break;
        case 'toggle-raw':
          state.setRaw(!state.raw);
          break;
        case 'open-in-agent':
          void state.openInAgent();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
