/**
 * Copying a session's brief from the tray or the global hotkey: render it for the default target,
 * write it to the clipboard marked concealed, schedule the optional auto-clear and say what was
 * copied in a notification.
 */
import { clipboard, ClipboardItem } from 'electron';
import { parseApiInput } from '../shared/contract.js';
import type { BatonCore } from './core/service.js';
import { briefClipboardRecord, ClipboardAutoClear } from './clipboard-formats.js';
import { briefCopiedNotice } from './brief-notice.js';
import { notify } from './notifications.js';
import { hotkeySessionId, latestSessionId as latestFrom } from './hotkey-session.js';

const autoClear = new ClipboardAutoClear({ readText: () => clipboard.readText(), clear: () => clipboard.clear() });

export async function copySessionBrief(core: BatonCore, sessionRef: string): Promise<void> {
  try {
    const settings = core.settings.get();
    const session = await core.api.getSession({ session: sessionRef });
    const brief = await core.api.generateBrief(parseApiInput('generateBrief', { session: session.id, target: settings.defaultTarget, format: 'md' }));
    await clipboard.write([new ClipboardItem(briefClipboardRecord(brief.text, process.platform))]);
    autoClear.schedule(brief.text, settings.clipboardClearSeconds * 1000);
    const { title, body } = briefCopiedNotice(brief, session, settings.clipboardClearSeconds);
    notify(title, body);
  } catch (err) {
    notify('Baton could not copy the brief', (err as Error).message);
  }
}

/** The most recently active session's id, or null when there is none. */
export async function latestSessionId(core: BatonCore): Promise<string | null> {
  return latestFrom(core.api);
}

/** The global hotkey and the tray's "Copy latest brief": the session selected in the UI while it
 *  still exists, else the most recent. */
export async function copyHotkeyBrief(core: BatonCore): Promise<void> {
  await copyChosenBrief(core, () => hotkeySessionId(core.api, core.desktop.selection()));
}

async function copyChosenBrief(core: BatonCore, choose: () => Promise<string | null>): Promise<void> {
  try {
    const id = await choose();
    if (!id) return notify('Baton', 'No sessions yet: nothing to copy.');
    await copySessionBrief(core, id);
  } catch (err) {
    notify('Baton could not copy the brief', (err as Error).message);
  }
}
