/**
 * Usage in the UI: the per-agent summary (the list's context meters come from its live sessions)
 * and the previewed session's usage panel. Answers apply in the order asked, and a session's usage
 * only ever shows for that session, so a slow answer cannot overwrite a newer one.
 */
import { isAgentId } from '../../../shared/model.js';
import type { SessionUsage } from '../../../shared/usage.js';
import { isUnauthorized, messageOf } from './errors.js';
import type { SliceCreator, UsageSlice } from './types.js';

export const createUsageSlice: SliceCreator<UsageSlice> = (set, get, deps) => {
  let summaryAsked = 0;
  let summaryShown = 0;
  let sessionAsked = 0;

  return {
    usage: null,
    liveUsage: new Map(),
    sessionUsage: null,
    sessionUsageError: null,

    async loadUsage() {
      const asked = ++summaryAsked;
      try {
        const usage = await deps.client.usageSummary({});
        if (asked < summaryShown) return;
        summaryShown = asked;
        const live = new Map<string, SessionUsage>();
        for (const a of usage.agents) for (const s of a.liveSessions) live.set(s.session, s);
        set({ usage, liveUsage: live });
      } catch {
        // Usage is extra information: the list works without it, and a failed refresh keeps the last one.
      }
    },

    async loadSessionUsage(sessionId) {
      const asked = ++sessionAsked;
      // A different session's panel is cleared at once; the same one keeps showing while it refreshes.
      if (get().sessionUsage?.for !== sessionId) set({ sessionUsage: null, sessionUsageError: null });
      try {
        // Scoped to the session's own agent so the answer carries no other agent's summary.
        const agent = sessionId.split(':')[0];
        const summary = await deps.client.usageSummary({ session: sessionId, ...(isAgentId(agent) ? { agent } : {}) });
        if (asked !== sessionAsked || get().previewId !== sessionId) return;
        set({ sessionUsage: { for: sessionId, usage: summary.session ?? null }, sessionUsageError: null });
      } catch (err) {
        if (asked !== sessionAsked || get().previewId !== sessionId) return;
        if (!isUnauthorized(err)) set({ sessionUsageError: messageOf(err) });
      }
    },

    async handOff(alert) {
      const target = alert.suggestedTarget ?? 'generic';
      // The handoff flow (#13) has not landed: the brief for the suggested agent is the handoff.
      return get().copyBriefFor(alert.session, target);
    },
  };
};
