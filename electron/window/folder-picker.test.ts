// The folder picker Electron registers: dialog options, cancel handling, and how the core's
// DesktopState serves it (one dialog at a time). The dialog itself is Electron's; here it is a
// recorder with the same shape, as global-hotkey.test.ts does for globalShortcut.
import { describe, expect, it } from 'vitest';
import { DesktopState } from '../core/desktop-state.js';
import { createFolderPicker, folderDialogOptions, type OpenDialogOptionsLike } from './folder-picker.js';

function recordingDialog(answers: { canceled: boolean; filePaths: string[] }[]) {
  const shown: OpenDialogOptionsLike[] = [];
  const release: (() => void)[] = [];
  const show = (options: OpenDialogOptionsLike) => {
    shown.push(options);
    const answer = answers.shift() ?? { canceled: true, filePaths: [] };
    return new Promise<{ canceled: boolean; filePaths: string[] }>((resolve) => release.push(() => resolve(answer)));
  };
  return { shown, show, closeNext: () => release.shift()?.() };
}

describe('folder picker', () => {
  it('asks for one folder, hidden folders shown (stores live in dot-folders)', () => {
    expect(folderDialogOptions({ title: 'Choose the Codex store folder', defaultPath: '/h/.codex' })).toEqual({
      title: 'Choose the Codex store folder',
      defaultPath: '/h/.codex',
      buttonLabel: 'Choose',
      properties: ['openDirectory', 'showHiddenFiles'],
    });
    const bare = folderDialogOptions({});
    expect(bare.title).toBe('Choose a folder');
    expect('defaultPath' in bare).toBe(false);
  });

  it('returns the chosen folder, or null when cancelled', async () => {
    const dialog = recordingDialog([
      { canceled: false, filePaths: ['/h/elsewhere/.claude'] },
      { canceled: true, filePaths: [] },
    ]);
    const pick = createFolderPicker(dialog.show);
    const first = pick({ title: 't' });
    dialog.closeNext();
    expect(await first).toBe('/h/elsewhere/.claude');
    const second = pick({});
    dialog.closeNext();
    expect(await second).toBeNull();
  });
});

describe('DesktopState.pickFolder', () => {
  it('is unavailable until the desktop app registers a picker (headless)', async () => {
    expect(await new DesktopState().pickFolder({})).toEqual({ path: null, available: false });
  });

  it('shares one open dialog between overlapping requests, then opens a new one', async () => {
    const state = new DesktopState();
    const dialog = recordingDialog([
      { canceled: false, filePaths: ['/a'] },
      { canceled: false, filePaths: ['/b'] },
    ]);
    state.setFolderPicker(createFolderPicker(dialog.show));
    const one = state.pickFolder({ title: 'first' });
    const two = state.pickFolder({ title: 'double click' });
    dialog.closeNext();
    expect(await one).toEqual({ path: '/a', available: true });
    expect(await two).toEqual({ path: '/a', available: true });
    expect(dialog.shown.map((o) => o.title)).toEqual(['first']);

    const three = state.pickFolder({ title: 'later' });
    dialog.closeNext();
    expect(await three).toEqual({ path: '/b', available: true });
    expect(dialog.shown).toHaveLength(2);

    state.setFolderPicker(null);
    expect(await state.pickFolder({})).toEqual({ path: null, available: false });
  });

  it('keeps the selection as set', () => {
    const state = new DesktopState();
    expect(state.selection()).toBeNull();
    state.setSelection('codex:abc');
    expect(state.selection()).toBe('codex:abc');
    state.setSelection(null);
    expect(state.selection()).toBeNull();
  });
});
