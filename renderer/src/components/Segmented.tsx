/**
 * A compact segmented control: a radio group with roving focus and arrow keys. The value may be
 * none of the options (chosen elsewhere, e.g. a "More" menu): then no radio is checked and the
 * first one takes the Tab stop.
 */
import { useRef, type KeyboardEvent } from 'react';
import { stepRadio } from '../lib/keyboard.js';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  title?: string;
}

export function Segmented<T extends string>(props: {
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  shortcut?: string;
}) {
  const { label, options, value, onChange, shortcut } = props;
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = options.findIndex((o) => o.value === value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = stepRadio(index, delta, options.length);
    const option = options[next];
    if (!option) return;
    onChange(option.value);
    refs.current[next]?.focus();
  };

  return (
    <div className="segmented" role="radiogroup" aria-label={label} onKeyDown={onKeyDown} title={shortcut ? `${label} (${shortcut})` : label}>
      {options.map((option, i) => (
        <button
          key={option.value}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          tabIndex={i === Math.max(0, index) ? 0 : -1}
          title={option.title}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
