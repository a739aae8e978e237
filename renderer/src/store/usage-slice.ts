/**
 * Usage in the UI: the per-agent summary (the list's context meters come from its live sessions)
 * and the previewed session's usage panel. Answers apply in the order asked, and a session's usage
 * only ever shows for that session, so a slow answer cannot overwrite a newer one.
 */
import { handoffNotice } from '../../../shared/handoff-notice.js';
import { AGENT_LABELS, isAgentId } from '../../../shared/model.js';
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

    async handOffAlert(alert) {
      const target = alert.suggestedTarget;
      // No other agent enabled: the generic brief is all there is to hand over.
      if (!target) return get().copyBriefFor(alert.session, 'generic');
      const label = AGENT_LABELS[target];
      try {
        // The handoff flow (#13): a pending handoff the target's next session in that folder
        // receives through its start-up hook, plugin or extension; the brief is copied too, for an agent without one.
        const result = await deps.client.handOff({ session: alert.session, target });
        await deps.clipboard.writeText(result.brief);
        get().notify('info', handoffNotice(label, result));
        void get().loadHandoffs();
        return true;
      } catch (err) {
        get().notify('error', `Could not hand off to ${label}: ${messageOf(err)}`);
        return false;
      }
    },
  };
};
