/**
 * Which session the global hotkey copies: the one selected in the UI while it still exists,
 * otherwise the most recently active one. No Electron here, so it is testable against a real core.
 */
import { ApiError, parseApiInput, type ApiHandlers } from '../../shared/contract.js';
import type { BriefTarget } from '../../shared/settings.js';

/** The choice itself: the selection wins only while the index still has it. */
export function chooseHotkeySession(selected: string | null, selectedExists: boolean, latest: string | null): string | null {
  return selected !== null && selectedExists ? selected : latest;
}

export type HotkeySessionApi = Pick<ApiHandlers, 'getSession' | 'listSessions'>;

/** The most recently active visible session's id, or null when there is none. */
export async function latestSessionId(api: Pick<ApiHandlers, 'listSessions'>): Promise<string | null> {
  const page = await api.listSessions(parseApiInput('listSessions', { limit: 1 }));
  return page.sessions[0]?.id ?? null;
}

/** Resolves the choice against the index; a selection that is gone (not_found) falls back. */
export async function hotkeySessionId(api: HotkeySessionApi, selected: string | null): Promise<string | null> {
  let exists = false;
  if (selected !== null) {
    try {
      exists = (await api.getSession({ session: selected })).id === selected;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
    }
  }
  // Only list when the selection cannot be used: one query per press.
  return chooseHotkeySession(selected, exists, exists ? null : await latestSessionId(api));
}

/** What the UI last said it shows: a session and the brief target picked for it. */
export interface UiSelection {
  session: string | null;
  target: BriefTarget | null;
}

/**
 * The brief the hotkey copies: the selected session's for the target the UI shows (what its Copy
 * button would copy), else the most recent session's for the default target.
 */
export async function hotkeyBrief(api: HotkeySessionApi, selection: UiSelection, defaultTarget: BriefTarget): Promise<{ session: string; target: BriefTarget } | null> {
  const session = await hotkeySessionId(api, selection.session);
  if (session === null) return null;
  const target = session === selection.session && selection.target !== null ? selection.target : defaultTarget;
  return { session, target };
}
