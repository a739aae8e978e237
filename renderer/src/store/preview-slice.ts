/**
 * The brief preview of one session: target and format pickers, the brief itself (re-generated
 * when they change, stale responses dropped), and the actions on it: copy, open in an agent,
 * checkpoint, restore (drift first, then confirm).
 */
import type { BriefResult } from '../../../shared/api-types.js';
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import { checkpointInput } from './checkpoint-draft.js';
import { messageOf } from './errors.js';
import { rowTitle } from './rows.js';
import type { PreviewSlice, SliceCreator } from './types.js';

export const createPreviewSlice: SliceCreator<PreviewSlice> = (set, get, deps) => {
  let briefGeneration = 0;
  let clearTimer: ReturnType<typeof setTimeout> | null = null;

  const briefOptions = () => {
    const settings = get().settingsView?.settings;
    return { budget: settings?.briefBudget, redact: settings?.redact ?? true };
  };

  const generate = (session: string): Promise<BriefResult> =>
    deps.client.generateBrief({ session, target: get().target, format: get().format, ...briefOptions() });

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

  return {
    previewId: null,
    previewSession: null,
    target: 'generic',
    format: 'md',
    brief: null,
    briefLoading: false,
    briefError: null,
    raw: false,
    openResult: null,
    handoffs: [],
    restore: { phase: 'idle' },

    openPreview(sessionId) {
      const id = sessionId ?? get().rows[get().cursor]?.id;
      if (!id) return;
      const known = get().sessionsById.get(id) ?? null;
      set({
        view: 'preview',
        previewId: id,
        previewSession: known,
        brief: null,
        briefError: null,
        openResult: null,
        handoffs: [],
        restore: { phase: 'idle' },
        raw: false,
      });
      void get().loadHandoffs();
      // The row may come from a search hit without details; fetch the full session.
      void deps.client
        .getSession({ session: id })
        .then((session) => {
          if (get().previewId === id) set({ previewSession: session });
        })
        .catch((err: unknown) => {
          if (get().previewId === id && !known) set({ briefError: messageOf(err) });
        });
      void get().loadBrief();
    },

    closePreview() {
      briefGeneration++;
      set({ view: 'list', restore: { phase: 'idle' }, openResult: null });
    },

    setTarget(target) {
      if (target === get().target) return;
      set({ target });
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

    async loadBrief() {
      const id = get().previewId;
      if (!id) return;
      const generation = ++briefGeneration;
      set({ briefLoading: true, briefError: null });
      try {
        const brief = await generate(id);
        if (generation !== briefGeneration) return;
        set({ brief, briefLoading: false });
      } catch (err) {
        if (generation !== briefGeneration) return;
        set({ brief: null, briefLoading: false, briefError: messageOf(err) });
      }
    },

    async copyBrief() {
      const state = get();
      if (state.view === 'preview') {
        const brief = state.brief;
        if (!brief || state.briefLoading) {
          state.notify('warning', 'The brief is still being prepared.');
          return false;
        }
        return writeClipboard(brief.text, `Copied the brief (${brief.tokens.toLocaleString()} tokens).`);
      }
      const row = state.rows[state.cursor];
      if (!row) return false;
      try {
        const brief = await generate(row.id);
        return writeClipboard(brief.text, `Copied the brief for “${rowTitle(row).slice(0, 60)}”.`);
      } catch (err) {
        state.notify('error', `Could not build the brief: ${messageOf(err)}`);
        return false;
      }
    },

    async openInAgent(target: AgentId) {
      const id = get().previewId;
      if (!id) return;
      try {
        const result = await deps.client.openInAgent({ session: id, target });
        set({ openResult: result });
        if (result.launched) get().notify('info', `Opened ${AGENT_LABELS[target]} in a new terminal.`);
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
        await writeClipboard(
          result.brief,
          result.hooksInstalled
            ? `Handed off to ${label}: its next session in ${result.checkpoint.handoff?.projectDir ?? 'the folder'} receives the brief (also copied).`
            : `Handed off to ${label}. It has no Baton start-up hook, so paste the brief (copied); Settings → Hooks installs it.`,
        );
        void get().loadHandoffs();
      } catch (err) {
        get().notify('error', `Could not hand off to ${AGENT_LABELS[target]}: ${messageOf(err)}`);
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
      try {
        const result = await deps.client.restore({
          session: id,
          confirmed: true,
          target: get().target,
          budget: briefOptions().budget,
        });
        if (get().previewId !== id) return;
        set({ restore: { phase: 'done', result }, ...(result.brief ? { brief: result.brief } : {}) });
      } catch (err) {
        if (get().previewId === id) set({ restore: { phase: 'error', message: messageOf(err) } });
      }
    },

    cancelRestore() {
      set({ restore: { phase: 'idle' } });
    },
  };
};
