/**
 * The brief preview of one session: target and format pickers, the brief itself (re-generated
 * when they change, stale responses dropped), and the actions on it: copy, open in an agent,
 * checkpoint, restore (drift first, then confirm).
 *
 * Actions never race a pending load: a copy waits for the brief being prepared (and says so), an
 * Enter typed while a search runs opens the top result once it is in, briefs wait for the first
 * settings load (target, budget, redaction), and "Open in" waits for the session's agent.
 */
import type { BriefFormat, BriefResult } from '../../../shared/api-types.js';
import { handoffNotice } from '../../../shared/handoff-notice.js';
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import type { BriefTarget } from '../../../shared/settings.js';
import { openTarget } from '../lib/open-target.js';
import { checkpointInput } from './checkpoint-draft.js';
import { messageOf } from './errors.js';
import { rowTitle } from './rows.js';
import type { PreviewSlice, SliceCreator } from './types.js';
import { settingsPending, whenState } from './when-state.js';

/** What a brief is generated for; a copy takes the one chosen when the user pressed it. */
interface BriefChoice {
  session: string;
  target: BriefTarget;
  format: BriefFormat;
}

const choiceKey = (c: BriefChoice): string => `${c.session}\u0000${c.target}\u0000${c.format}`;

const TARGET_NAMES: Record<BriefTarget, string> = { generic: 'any agent', ...AGENT_LABELS };

export const createPreviewSlice: SliceCreator<PreviewSlice> = (set, get, deps, store) => {
  let briefGeneration = 0;
  let clearTimer: ReturnType<typeof setTimeout> | null = null;
  /** The choice the shown brief (state.brief) was made for. */
  let shownKey: string | null = null;
  /** The copy waiting now: pressing c again meanwhile joins it instead of copying twice. */
  let pendingCopy: { key: string; done: Promise<boolean> } | null = null;

  const briefOptions = () => {
    const settings = get().settingsView?.settings;
    return { budget: settings?.briefBudget, redact: settings?.redact ?? true };
  };

  const chosen = (session: string): BriefChoice => ({ session, target: get().target, format: get().format });

  /** `reveal`: the brief as it is, secrets shown (only for the preview, after "Reveal secrets"). */
  const generate = async (choice: BriefChoice, reveal = false): Promise<BriefResult> => {
    if (settingsPending(get())) await whenState(store, (s) => !settingsPending(s));
    if (reveal) return (deps.revealClient ?? deps.client).generateBrief({ ...choice, ...briefOptions(), redact: false });
    return deps.client.generateBrief({ ...choice, ...briefOptions() });
  };

  /** The previewed session's details (title, goal), unmasked when revealed. */
  const loadSession = (id: string, known: boolean): void => {
    const client = get().revealed ? (deps.revealClient ?? deps.client) : deps.client;
    void client
      .getSession({ session: id })
      .then((session) => {
        if (get().previewId === id) set({ previewSession: session });
      })
      .catch((err: unknown) => {
        if (get().previewId === id && !known) set({ briefError: messageOf(err) });
      });
  };

  const writeClipboard = async (text: string, label: string): Promise<boolean> => {
    try {
      await deps.clipboard.writeText(text);
    } catch (err) {
      get().notify('error', `Could not copy to the clipboard: ${messageOf(err)}`);
      return false;
    }
    get().notify('info', label);
    const seconds = get().settingsView?.settings.clipboardClearSeconds ?? 0;
    if (clearTimer) clearTimeout(clearTimer);
    if (seconds > 0) {
      clearTimer = setTimeout(() => void deps.clipboard.writeText('').catch(() => undefined), seconds * 1000);
    }
    return true;
  };

  /** The brief for `choice`: the one shown once its load settles, else a fresh one. */
  const briefFor = async (choice: BriefChoice): Promise<BriefResult> => {
    if (get().briefLoading) await whenState(store, (s) => !s.briefLoading);
    const shown = get().brief;
    if (shown && shownKey === choiceKey(choice)) return shown;
    return generate(choice);
  };

  /** Runs one copy with "Preparing…" shown while it waits; a second press for the same choice joins it. */
  const copyOnce = (key: string, status: string, run: () => Promise<boolean>): Promise<boolean> => {
    if (pendingCopy?.key === key) return pendingCopy.done;
    set({ copyStatus: status });
    const done = run().finally(() => {
      if (pendingCopy?.done === done) {
        pendingCopy = null;
        set({ copyStatus: null });
      }
    });
    pendingCopy = { key, done };
    return done;
  };

  const copyPreviewed = (choice: BriefChoice): Promise<boolean> => {
    const label = TARGET_NAMES[choice.target];
    const ready = !get().briefLoading && get().brief !== null && shownKey === choiceKey(choice);
    const copy = async (): Promise<boolean> => {
      let brief: BriefResult;
      try {
        brief = await briefFor(choice);
      } catch (err) {
        get().notify('error', `Could not build the brief: ${messageOf(err)}`);
        return false;
      }
      return writeClipboard(brief.text, `Copied the brief (${brief.tokens.toLocaleString()} tokens, for ${label}).`);
    };
    if (ready) return copy();
    return copyOnce(choiceKey(choice), `Preparing the brief for ${label}; it is copied when ready…`, copy);
  };

  /** From the list: the row under the cursor once the list and any search have settled. */
  const copySelectedRow = (): Promise<boolean> =>
    copyOnce('list', 'Preparing the brief…', async () => {
      const state = await whenState(store, (s) => !s.searchPending && (s.sessionsLoaded || !s.sessionsLoading));
      const row = state.rows[state.cursor];
      if (!row) {
        state.notify('warning', 'No session is selected: nothing to copy.');
        return false;
      }
      try {
        const brief = await generate(chosen(row.id));
        return writeClipboard(brief.text, `Copied the brief for “${rowTitle(row).slice(0, 60)}”.`);
      } catch (err) {
        get().notify('error', `Could not build the brief: ${messageOf(err)}`);
        return false;
      }
    });

  return {
    previewId: null,
    previewSession: null,
    target: 'generic',
    format: 'md',
    brief: null,
    briefLoading: false,
    briefError: null,
    raw: false,
    revealed: false,
    copyStatus: null,
    openAgent: null,
    openResult: null,
    handoffs: [],
    restore: { phase: 'idle' },

    openPreview(sessionId) {
      if (sessionId === undefined && get().searchPending) {
        // Enter typed before the results came in means the result the user is about to see
        // (unless the search was changed or cleared meanwhile).
        const query = get().query;
        void whenState(store, (s) => !s.searchPending).then((s) => {
          if (s.query === query) get().openPreview();
        });
        return;
      }
      const id = sessionId ?? get().rows[get().cursor]?.id;
      if (!id) return;
      const known = get().sessionsById.get(id) ?? null;
      set({
        view: 'preview',
        previewId: id,
        previewSession: known,
        brief: null,
        briefError: null,
        openAgent: null,
        openResult: null,
        handoffs: [],
        restore: { phase: 'idle' },
        raw: false,
        revealed: false,
      });
      shownKey = null;
      void get().loadHandoffs();
      // The row may come from a search hit without details; fetch the full session.
      loadSession(id, known !== null);
      void get().loadBrief();
      void get().loadSessionUsage(id);
    },

    closePreview() {
      briefGeneration++;
      set({ view: 'list', briefLoading: false, restore: { phase: 'idle' }, openResult: null });
    },

    setTarget(target) {
      if (target === get().target) return;
      set({ target, openAgent: null });
      if (get().previewId) void get().loadBrief();
    },

    setFormat(format) {
      if (format === get().format) return;
      set({ format });
      if (get().previewId) void get().loadBrief();
    },

    setRaw(raw) {
      set({ raw });
    },

    setRevealed(revealed) {
      const id = get().previewId;
      if (revealed === get().revealed || !id) return;
      set({ revealed });
      loadSession(id, true);
      void get().loadBrief();
    },

    async loadBrief() {
      const id = get().previewId;
      if (!id) return;
      const generation = ++briefGeneration;
      set({ briefLoading: true, briefError: null });
      try {
        if (settingsPending(get())) await whenState(store, (s) => !settingsPending(s));
        if (generation !== briefGeneration) return;
        const choice = chosen(id);
        const brief = await generate(choice, get().revealed);
        if (generation !== briefGeneration) return;
        shownKey = choiceKey(choice);
        set({ brief, briefLoading: false });
      } catch (err) {
        if (generation !== briefGeneration) return;
        shownKey = null;
        set({ brief: null, briefLoading: false, briefError: messageOf(err) });
      }
    },

    copyBrief() {
      const id = get().previewId;
      if (get().view === 'preview' && id) return copyPreviewed(chosen(id));
      return copySelectedRow();
    },

    copyBriefFor(sessionId, target) {
      const label = TARGET_NAMES[target];
      return copyOnce(`for\u0000${sessionId}\u0000${target}`, `Preparing the brief for ${label}…`, async () => {
        try {
          const brief = await generate({ session: sessionId, target, format: 'md' });
          return writeClipboard(brief.text, `Copied the handoff brief for ${label} (${brief.tokens.toLocaleString()} tokens): paste it into ${label}.`);
        } catch (err) {
          get().notify('error', `Could not build the brief: ${messageOf(err)}`);
          return false;
        }
      });
    },

    setOpenAgent(agent) {
      set({ openAgent: agent });
    },

    async openInAgent(picked?: AgentId) {
      const id = get().previewId;
      if (!id) return;
      let target: AgentId;
      try {
        // The default depends on the session's own agent: wait for its details if they are out.
        const session = get().previewSession ?? (await deps.client.getSession({ session: id }));
        target = picked ?? openTarget(get().target, session.agent, get().openAgent);
      } catch (err) {
        get().notify('error', `Could not open the session: ${messageOf(err)}`);
        return;
      }
      try {
        const result = await deps.client.openInAgent({ session: id, target });
        set({ openResult: result });
        // An agent that takes no first prompt opened bare: the brief goes on the clipboard to paste there.
        if (result.launched && result.pasteBrief) await get().copyBriefFor(id, target);
        else if (result.launched) get().notify('info', `Opened ${AGENT_LABELS[target]} in a new terminal.`);
        else get().notify('warning', result.error ?? `Could not open ${AGENT_LABELS[target]}; run the command shown.`);
      } catch (err) {
        get().notify('error', `Could not open ${AGENT_LABELS[target]}: ${messageOf(err)}`);
      }
    },

    async loadHandoffs() {
      const id = get().previewId;
      if (!id) return;
      try {
        const handoffs = await deps.client.listHandoffs({ session: id });
        if (get().previewId === id) set({ handoffs });
      } catch {
        // The status line is a convenience: the brief and actions work without it.
      }
    },

    async handOff(target: AgentId) {
      const id = get().previewId;
      if (!id) return;
      try {
        const result = await deps.client.handOff({ session: id, target, open: true });
        set({ openResult: result.opened });
        const label = AGENT_LABELS[target];
        await writeClipboard(result.brief, handoffNotice(label, result));
        void get().loadHandoffs();
      } catch (err) {
        get().notify('error', `Could not hand off to ${AGENT_LABELS[target]}: ${messageOf(err)}`);
      }
    },

    async continueIn(target: AgentId) {
      const id = get().previewId;
      if (!id) return;
      const label = AGENT_LABELS[target];
      try {
        const result = await deps.client.continueSession({ session: id, target, open: true });
        set({ openResult: result.opened });
        const warnings = result.warnings.length ? ` ${result.warnings.join(' ')}` : '';
        if (result.opened && !result.opened.launched) get().notify('warning', `Continued in ${label} as ${result.session}; run the command shown to resume it.${warnings}`);
        else get().notify(warnings ? 'warning' : 'info', `Continued in ${label} as ${result.session}${result.reused ? ' (already written before)' : ''}.${warnings}`);
      } catch (err) {
        get().notify('error', `Could not continue in ${label}: ${messageOf(err)}`);
      }
    },

    async createCheckpoint(draft) {
      const id = get().previewId;
      if (!id) return false;
      if (!draft.summary.trim()) {
        get().notify('warning', 'A checkpoint needs a summary.');
        return false;
      }
      try {
        await deps.client.createCheckpoint(checkpointInput(id, draft));
        get().notify('info', 'Checkpoint saved.');
        void get().loadBrief();
        return true;
      } catch (err) {
        get().notify('error', `Could not save the checkpoint: ${messageOf(err)}`);
        return false;
      }
    },

    async startRestore() {
      const id = get().previewId;
      if (!id) return;
      set({ restore: { phase: 'loading' } });
      try {
        const result = await deps.client.restore({ session: id, confirmed: false, target: get().target });
        if (get().previewId === id) set({ restore: { phase: 'drift', result } });
      } catch (err) {
        if (get().previewId === id) set({ restore: { phase: 'error', message: messageOf(err) } });
      }
    },

    async confirmRestore() {
      const id = get().previewId;
      const current = get().restore;
      if (!id || current.phase !== 'drift') return;
      set({ restore: { phase: 'confirming', result: current.result } });
      // The restored brief replaces a brief load in flight, unless the user picked another target
      // or format meanwhile (then that load is what they asked for last).
      const generation = briefGeneration;
      const choice = chosen(id);
      try {
        const result = await deps.client.restore({
          session: id,
          confirmed: true,
          target: choice.target,
          budget: briefOptions().budget,
        });
        if (get().previewId !== id) return;
        set({ restore: { phase: 'done', result } });
        if (result.brief && generation === briefGeneration) {
          briefGeneration++;
          shownKey = choiceKey({ ...choice, format: result.brief.format });
          set({ brief: result.brief, briefLoading: false, briefError: null });
        }
      } catch (err) {
        if (get().previewId === id) set({ restore: { phase: 'error', message: messageOf(err) } });
      }
    },

    cancelRestore() {
      set({ restore: { phase: 'idle' } });
    },
  };
};
