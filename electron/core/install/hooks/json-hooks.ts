/**
 * Baton's entries in a Claude-style hooks file (Claude Code's settings.json, Codex's hooks.json):
 * `hooks.<Event>` is a list of groups `{matcher?, hooks: [{type: "command", command, timeout}]}`.
 * `at` says where the events object is: `["hooks"]` (the default), or `[]` for a file that is the
 * events object itself (Factory Droid's hooks.json).
 * jsonc-parser edits touch only the bytes of our group (comments and the user's layout stay), and
 * a file that does not parse is refused, never rewritten.
 */
import { applyEdits, findNodeAtLocation, format, modify, parseTree, type Node } from 'jsonc-parser';
import { detectFormatting, parseJsonConfig } from '../config/edit-json.js';
import { ConfigEditError } from '../config/config-edit-error.js';
import { isBatonHookCommand } from './hook-command.js';
import { HOOKS_KEY } from './hook-targets.js';

/** Re-exported for the installers; it lives in hook-targets.ts, which `baton --help` loads without a parser. */
export { HOOKS_KEY };

export interface WantedHook {
  event: string;
  command: string;
  timeout: number;
}

interface Group {
  matcher?: unknown;
  hooks?: unknown;
}


/** The events object at `at` (undefined when absent). */
function eventsAt(root: Record<string, unknown>, at: string[]): unknown {
  return at.length === 0 ? root : root[at[0]!];
}

function groupsOf(root: Record<string, unknown>, event: string, file: string, at: string[]): Group[] {
  const hooks = eventsAt(root, at);
  if (hooks === undefined) return [];
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) throw new ConfigEditError(`${file}: "hooks" is not an object; fix it first — Baton leaves the file untouched.`);
  const list = (hooks as Record<string, unknown>)[event];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ConfigEditError(`${file}: "${[...at, event].join('.')}" is not a list; fix it first — Baton leaves the file untouched.`);
  return list as Group[];
}

function isOurs(group: Group): boolean {
  return Array.isArray(group.hooks) && group.hooks.length > 0 && group.hooks.every((h) => isBatonHookCommand((h as { command?: unknown })?.command));
}

function groupFor(hook: WantedHook): Group {
  return { hooks: [{ type: 'command', command: hook.command, timeout: hook.timeout }] };
}

/** Inserts `value` at `path` compactly, then formats only the inserted node like its neighbours. */
function insertFormatted(text: string, path: (string | number)[], value: unknown, arrayInsert: boolean): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const inserted = applyEdits(base, modify(base, path, value, { isArrayInsertion: arrayInsert }));
  const tree = parseTree(inserted)!;
  let node: Node | undefined = findNodeAtLocation(tree, path);
  if (!arrayInsert) node = node?.parent; // the property, not only its value
  const parent = node?.parent;
  if (!node || !parent?.children) return inserted;
  const siblings = parent.children;
  const previous = siblings[siblings.indexOf(node) - 1];
  const start = previous ? previous.offset + previous.length : parent.offset + 1;
  return applyEdits(inserted, format(inserted, { offset: start, length: node.offset + node.length - start }, detectFormatting(base)));
}

/** Our groups removed, then one group per wanted hook appended; unchanged text when already so. */
export function setJsonHooks(text: string, wanted: WantedHook[], file: string, at = HOOKS_KEY): string {
  let next = removeJsonHooks(text, file, at);
  for (const hook of wanted) {
    const root = parseJsonConfig(next, file);
    const existing = groupsOf(root, hook.event, file, at);
    const events = eventsAt(root, at);
    if (events === undefined) next = insertFormatted(next, at, { [hook.event]: [groupFor(hook)] }, false);
    else if (!(hook.event in (events as object))) next = insertFormatted(next, [...at, hook.event], [groupFor(hook)], false);
    else next = insertFormatted(next, [...at, hook.event, existing.length], groupFor(hook), true);
  }
  // Same entries as before (perhaps in another order of events): keep the file as it is.
  return sameHooks(text, next, file, at) ? text : next;
}

export function removeJsonHooks(text: string, file: string, at = HOOKS_KEY): string {
  let next = text;
  for (;;) {
    const root = parseJsonConfig(next, file);
    const hooks = eventsAt(root, at);
    if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return next;
    let changed = false;
    for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      const index = (list as Group[]).findIndex(isOurs);
      if (index === -1) continue;
      // Only Baton's group goes; an emptied list or object stays (the installer removes the
      // containers Baton created, and only those).
      if (list.length === 1) next = applyEdits(next, modify(next, [...at, event], [], {}));
      else next = removeArrayElement(next, [...at, event], index);
      changed = true;
      break;
    }
    if (!changed) return next;
  }
}

/**
 * Cuts one element out of an array with the separator next to it and nothing else (jsonc-parser's
 * own removal can leave a dangling brace behind an element that was inserted and formatted).
 */
function removeArrayElement(text: string, arrayPath: (string | number)[], index: number): string {
  const array = findNodeAtLocation(parseTree(text)!, arrayPath);
  const items = array?.children ?? [];
  const node = items[index];
  if (!node) return text;
  const previous = items[index - 1];
  const next = items[index + 1];
  const [start, end] = previous ? [previous.offset + previous.length, node.offset + node.length] : next ? [node.offset, next.offset] : [node.offset, node.offset + node.length];
  return text.slice(0, start) + text.slice(end);
}

/** Baton's hooks in the file: event → commands. */
export function readJsonHooks(text: string, file: string, at = HOOKS_KEY): Map<string, string[]> {
  const root = parseJsonConfig(text, file);
  const found = new Map<string, string[]>();
  const hooks = eventsAt(root, at);
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return found;
  for (const [event, list] of Object.entries(hooks)) {
    // In a file that is the events object, other top-level keys (hooksDisabled…) are not events.
    if (at.length === 0 && !Array.isArray(list)) continue;
    for (const group of groupsOf(root, event, file, at)) {
      if (!isOurs(group)) continue;
      for (const h of group.hooks as { command: string }[]) found.set(event, [...(found.get(event) ?? []), h.command]);
    }
  }
  return found;
}

function sameHooks(a: string, b: string, file: string, at: string[]): boolean {
  const key = (m: Map<string, string[]>) => JSON.stringify([...m.entries()].sort());
  const strip = (t: string) => JSON.stringify(parseJsonConfig(removeJsonHooks(t, file, at), file));
  return key(readJsonHooks(a, file, at)) === key(readJsonHooks(b, file, at)) && strip(a) === strip(b);
}

/** Containers Baton's hooks may bring: `hooks.<event>` for each event (deepest first), then `hooks`. */
export function jsonHookContainers(events: string[], at = HOOKS_KEY): string[][] {
  const lists = [...new Set(events)].map((e) => [...at, e]);
  return at.length === 0 ? lists : lists.concat([at]);
}
