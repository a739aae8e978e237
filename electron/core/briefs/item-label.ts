/**
 * "Blocker: …", "Decision: …": a label the brief puts before an item, said once. The item's own
 * text often starts with the same label (the user wrote "Blocker: the staging DB is down", an
 * agent's checkpoint lists "Decision: …"); that copy is dropped instead of doubled.
 */

/** Labels that mean the same as the one shown ("Rejected" for "Rejected alternative"…), by shown label. */
const SAME: Record<string, string[]> = {
  blocker: ['blocker', 'blockers', 'blocked', 'blocking'],
  decision: ['decision', 'decisions', 'decided'],
  rejected: ['rejected', 'rejection', 'ruled out'],
  open: ['open', 'open item', 'todo', 'to do'],
  'next step': ['next step', 'next steps', 'next'],
};

/** The item's text without a leading label that repeats `label` ("**Blocker:** x", "blocker - x"). */
export function withoutLabel(label: string, text: string): string {
  const names = SAME[label.toLowerCase()] ?? [label.toLowerCase()];
  const alternatives = names.map((n) => n.replace(/ /g, '\\s+')).join('|');
  const re = new RegExp(`^\\s*(?:[*_]{1,2})?(?:${alternatives})(?:[*_]{1,2})?\\s*(?::|—|–|-(?=\\s))(?:[*_]{1,2})?\\s*`, 'i');
  let out = text;
  // "Blocker: Blocker: x" from a source that doubled it already: drop every copy.
  for (let i = 0; i < 3 && re.test(out); i++) out = out.replace(re, '');
  return out.trim() ? out : text;
}

/** `Label: text`, the label said once. */
export function labelled(label: string, text: string): string {
  return `${label}: ${withoutLabel(label, text)}`;
}
