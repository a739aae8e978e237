// Which session the global hotkey copies: the pure choice, then the resolver against a real core
// over the fixture stores (real adapters, real index.db).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, parseApiInput } from '../../shared/contract.js';
import type { BatonCore } from '../core/service.js';
import { startFixtureCore } from '../../testing/fixture-core.js';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { chooseHotkeySession, hotkeyBrief, hotkeySessionId, latestSessionId, type HotkeySessionApi } from './hotkey-session.js';

describe('chooseHotkeySession', () => {
  it('takes the selection while it exists, the latest otherwise', () => {
    expect(chooseHotkeySession('codex:a', true, 'claude:b')).toBe('codex:a');
    expect(chooseHotkeySession('codex:a', false, 'claude:b')).toBe('claude:b');
    expect(chooseHotkeySession(null, false, 'claude:b')).toBe('claude:b');
    expect(chooseHotkeySession(null, true, 'claude:b')).toBe('claude:b');
    expect(chooseHotkeySession('codex:a', false, null)).toBeNull();
    expect(chooseHotkeySession(null, false, null)).toBeNull();
  });
});

describe('hotkeySessionId over the fixture stores', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let ids: string[];

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
    ids = (await core.api.listSessions(parseApiInput('listSessions', { limit: 1000 }))).sessions.map((s) => s.id);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('copies the most recent session when nothing is selected', async () => {
    expect(ids.length).toBeGreaterThan(3);
    expect(await latestSessionId(core.api)).toBe(ids[0]);
    expect(await hotkeySessionId(core.api, null)).toBe(ids[0]);
  });

  it('copies the session the UI selected (set through the API, as the renderer does)', async () => {
    const older = ids[3]!;
    await core.api.setSelection(parseApiInput('setSelection', { session: older }));
    expect(await hotkeySessionId(core.api, core.desktop.selection())).toBe(older);
    await core.api.setSelection(parseApiInput('setSelection', { session: null }));
    expect(await hotkeySessionId(core.api, core.desktop.selection())).toBe(ids[0]);
  });

  it('falls back to the most recent when the selection is no longer in the index', async () => {
    expect(await hotkeySessionId(core.api, 'claude:00000000-0000-4000-8000-000000000000')).toBe(ids[0]);
  });

  it('lists only when the selection cannot be used', async () => {
    const calls: string[] = [];
    const counting: HotkeySessionApi = {
      getSession: (input) => (calls.push('getSession'), core.api.getSession(input)),
      listSessions: (input) => (calls.push('listSessions'), core.api.listSessions(input)),
    };
    await hotkeySessionId(counting, ids[2]!);
    expect(calls).toEqual(['getSession']);
  });

  it('reports errors other than not-found instead of copying something else', async () => {
    const failing: HotkeySessionApi = {
      getSession: () => Promise.reject(new ApiError('internal', 'index is locked')),
      listSessions: (input) => core.api.listSessions(input),
    };
    await expect(hotkeySessionId(failing, ids[1]!)).rejects.toThrow('index is locked');
  });

  it('copies the selected session for the target the UI shows, the latest for the default target', async () => {
    const older = ids[3]!;
    await core.api.setSelection(parseApiInput('setSelection', { session: older, target: 'hermes' }));
    const selection = () => ({ session: core.desktop.selection(), target: core.desktop.selectionTarget() });
    expect(await hotkeyBrief(core.api, selection(), 'claude')).toEqual({ session: older, target: 'hermes' });
    // The UI said no target (an older renderer): the default one.
    await core.api.setSelection(parseApiInput('setSelection', { session: older }));
    expect(await hotkeyBrief(core.api, selection(), 'claude')).toEqual({ session: older, target: 'claude' });
    // A selection that left the index: the latest session, and the UI's target does not carry over.
    expect(await hotkeyBrief(core.api, { session: 'claude:00000000-0000-4000-8000-000000000000', target: 'hermes' }, 'codex')).toEqual({ session: ids[0], target: 'codex' });
    await core.api.setSelection(parseApiInput('setSelection', { session: null, target: 'hermes' }));
    expect(core.desktop.selectionTarget()).toBeNull();
  });
});
