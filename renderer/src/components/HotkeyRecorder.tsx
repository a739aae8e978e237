/** Records a global hotkey: click, press the combination, done (Escape cancels). */
import { useState, type KeyboardEvent } from 'react';
import { formatAccelerator, recordAccelerator } from '../lib/accelerator.js';
import { IS_MAC } from '../lib/platform.js';

export function HotkeyRecorder({ id, value, onChange }: { id: string; value: string; onChange: (accelerator: string) => void }) {
  const [recording, setRecording] = useState(false);
  const [hint, setHint] = useState<string | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!recording) return;
    if (event.key === 'Tab') return; // keep Tab for leaving the control
    event.preventDefault();
    event.stopPropagation();
    const result = recordAccelerator(event, IS_MAC);
    if (result.kind === 'cancel') {
      setRecording(false);
      setHint(null);
    } else if (result.kind === 'invalid') {
      setHint(result.reason);
    } else if (result.kind === 'accelerator') {
      setRecording(false);
      setHint(null);
      if (result.accelerator !== value) onChange(result.accelerator);
    }
  };

  return (
    <span className="setting-control">
      <button
        id={id}
        type="button"
        className={`hotkey ${recording ? 'recording' : ''}`}
        aria-pressed={recording}
        aria-label={recording ? 'Press the new shortcut' : `Hotkey ${formatAccelerator(value, IS_MAC)}, press to change`}
        onClick={() => setRecording(!recording)}
        onBlur={() => setRecording(false)}
        onKeyDown={onKeyDown}
      >
        {recording ? 'Press keys…' : formatAccelerator(value, IS_MAC)}
      </button>
      {hint && <span className="field-error">{hint}</span>}
    </span>
  );
}
