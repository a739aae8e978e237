/** "Checkpoint now": summary, decisions and next steps (one per line) → createCheckpoint. */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useAppStore } from '../store/context.js';
import type { CheckpointDraft } from '../store/checkpoint-draft.js';
import { MOD_LABEL } from '../lib/platform.js';

export function CheckpointForm({ onClose }: { onClose: () => void }) {
  const store = useAppStore();
  const [draft, setDraft] = useState<CheckpointDraft>({ summary: '', decisions: '', nextSteps: '' });
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLTextAreaElement>(null);
  useEffect(() => first.current?.focus(), []);

  const save = async () => {
    setSaving(true);
    const ok = await store.getState().createCheckpoint(draft);
    setSaving(false);
    if (ok) onClose();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      void save();
    }
  };
  const field = (key: keyof CheckpointDraft) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });

  return (
    <form
      className="panel checkpoint-form"
      data-modal="true"
      aria-label="New checkpoint"
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Summary — where the work stands
        <textarea ref={first} rows={3} required {...field('summary')} />
      </label>
      <div className="two-col">
        <label>
          Decisions (one per line)
          <textarea rows={3} {...field('decisions')} />
        </label>
        <label>
          Next steps (one per line)
          <textarea rows={3} {...field('nextSteps')} />
        </label>
      </div>
      <div className="panel-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={saving || !draft.summary.trim()} title={`${MOD_LABEL}+Enter`}>
          {saving ? 'Saving…' : 'Save checkpoint'}
        </button>
      </div>
    </form>
  );
}
