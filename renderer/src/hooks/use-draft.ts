import { useState } from 'react';

/**
 * Text the user is editing for a saved value: follows the saved value when it changes elsewhere
 * (another window, settings-changed), without remounting the input and losing focus.
 */
export function useDraft(saved: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(saved);
  const [base, setBase] = useState(saved);
  if (base !== saved) {
    // Adjusting state while rendering is React's recommended way to reset on a prop change.
    setBase(saved);
    setDraft(saved);
  }
  return [draft, setDraft];
}
