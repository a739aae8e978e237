/**
 * Copying a session's brief from the tray or the global hotkey: render it for the default target,
 * write it to the clipboard marked concealed, schedule the optional auto-clear and say what was
 * copied in a notification.
 */
import { clipboard, ClipboardItem } from 'electron';
import { parseApiInput } from '../../shared/contract.js';
import { deliverySetUpHint } from '../../shared/handoff-notice.js';
import type { BatonCore } from '../core/service.js';
import { briefClipboardRecord, ClipboardAutoClear } from './clipboard-formats.js';
import { briefCopiedNotice } from './brief-notice.js';
import { notify } from '../app/notifications.js';
import { hotkeyBrief, latestSessionId as latestFrom } from '../hotkey/hotkey-session.js';
import type { BriefTarget } from '../../shared/settings.js';
import { AGENT_LABELS, type AgentId } from '../../shared/model.js';

const autoClear = new ClipboardAutoClear({ readText: () => clipboard.readText(), clear: () => clipboard.clear() });

export async function copySessionBrief(core: BatonCore, sessionRef: string, target?: BriefTarget): Promise<void> {
  try {
    const settings = core.settings.get();
    const session = await core.api.getSession({ session: sessionRef });
    const brief = await core.api.generateBrief(parseApiInput('generateBrief', { session: session.id, target: target ?? settings.defaultTarget, format: 'md' }));
    await clipboard.write([new ClipboardItem(briefClipboardRecord(brief.text, process.platform))]);
    autoClear.schedule(brief.text, settings.clipboardClearSeconds * 1000);
    const { title, body } = briefCopiedNotice(brief, session, settings.clipboardClearSeconds);
    notify(title, body);
  } catch (err) {
    notify('Baton could not copy the brief', (err as Error).message);
  }
}

/**
 * A usage alert's action in the tray app: the handoff (#13) of the session to `target`, its brief
 * also on the clipboard for an agent without Baton's start-up hook.
 */
export async function handOffFromAlert(core: BatonCore, sessionId: string, target: AgentId): Promise<void> {
  try {
    const result = await core.api.handOff(parseApiInput('handOff', { session: sessionId, target }));
    await clipboard.write([new ClipboardItem(briefClipboardRecord(result.brief, process.platform))]);
    const settings = core.settings.get();
    autoClear.schedule(result.brief, settings.clipboardClearSeconds * 1000);
    notify(
      `Handed off to ${AGENT_LABELS[target]}`,
      result.hooksInstalled
        ? 'Its next session in that folder receives the brief (also copied).'
        : `Paste the brief (copied): it has no Baton start-up hook yet; ${deliverySetUpHint(result.delivery)}.`,
    );
  } catch (err) {
    notify(`Baton could not hand off to ${AGENT_LABELS[target]}`, (err as Error).message);
  }
}

/** The most recently active session's id, or null when there is none. */
export async function latestSessionId(core: BatonCore): Promise<string | null> {
  return latestFrom(core.api);
}

/** The global hotkey and the tray's "Copy latest brief": the session selected in the UI while it
 *  still exists (for the target the UI shows), else the most recent (for the default target). */
export async function copyHotkeyBrief(core: BatonCore): Promise<void> {
  try {
    const selection = { session: core.desktop.selection(), target: core.desktop.selectionTarget() };
    const chosen = await hotkeyBrief(core.api, selection, core.settings.get().defaultTarget);
    if (!chosen) return notify('Baton', 'No sessions yet: nothing to copy.');
    await copySessionBrief(core, chosen.session, chosen.target);
  } catch (err) {
    notify('Baton could not copy the brief', (err as Error).message);
  }
}
