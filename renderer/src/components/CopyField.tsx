/** A read-only value (command, URL, token) with a Copy button beside it. */
import { useState } from 'react';

export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const [revealed, setRevealed] = useState(!secret);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="copy-field">
      <code aria-label={label} className={revealed ? '' : 'masked'}>
        {revealed ? value : '•'.repeat(Math.min(24, value.length))}
      </code>
      {secret && (
        <button type="button" className="small" onClick={() => setRevealed(!revealed)}>
          {revealed ? 'Hide' : 'Reveal'}
        </button>
      )}
      <button type="button" className="small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
