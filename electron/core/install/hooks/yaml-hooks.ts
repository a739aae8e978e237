/**
 * Baton's entries in Hermes' `config.yaml`: `hooks.<event>` is a list of `{command, timeout}`
 * (Hermes' shell hooks). Only Baton's lines are spliced in or cut out (config/yaml-splice.ts), each
 * splice proven by parsing the result: everything but Baton's items must read as before. A file
 * that does not parse, or a layout where a splice would touch the user's lines, is refused with
 * the reason. (Uninstall restores the exact bytes when the file was not changed since the install;
 * see config-change.ts.)
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { parseYamlConfig, parseYamlDocument } from '../config/yaml-parse.js';
import { ConfigEditError } from '../config/config-edit-error.js';
import { unproven } from '../config/edit-yaml.js';
import { applyEdits, childrenEdit, hasItems, isEmptyNode, itemsEdit, removeItems, setChild, type Edit } from '../config/yaml-splice.js';
import { isBatonHookCommand } from './hook-command.js';
import type { WantedHook } from './json-hooks.js';

const load = parseYamlConfig;

function hooksMap(doc: Document, file: string): YAMLMap | null {
  const node: unknown = doc.get('hooks', true);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) return null;
  if (!isMap(node)) throw new ConfigEditError(`${file}: "hooks" is not a mapping; fix it first — Baton leaves the file untouched.`);
  return node;
}

function commandOf(item: unknown): unknown {
  return isMap(item) ? item.get('command') : undefined;
}

const isBatonItem = (item: unknown): boolean => isBatonHookCommand(commandOf(item));

function plainOf(doc: Document): Record<string, unknown> {
  return (doc.toJS() ?? {}) as Record<string, unknown>;
}

function plainHooks(root: Record<string, unknown>): Record<string, unknown> {
  const hooks = root.hooks;
  return hooks !== null && typeof hooks === 'object' && !Array.isArray(hooks) ? { ...(hooks as Record<string, unknown>) } : {};
}

/** The spliced text reads as `before` with `hooks` replaced by `hooks` (key by key: a config may be huge). */
function proven(before: Record<string, unknown>, afterText: string, hooks: Record<string, unknown>): boolean {
  const doc = parseYamlDocument(afterText);
  if (doc.errors.length > 0) return false;
  const after = plainOf(doc);
  const others = (root: Record<string, unknown>) => Object.keys(root).filter((k) => k !== 'hooks');
  const keys = others(before);
  if (keys.length !== others(after).length || !keys.every((k) => Object.hasOwn(after, k) && isDeepStrictEqual(before[k], after[k]))) return false;
  return isDeepStrictEqual(plainHooks(after), hooks);
}

const isBatonPlain = (item: unknown): boolean =>
  item !== null && typeof item === 'object' && isBatonHookCommand((item as Record<string, unknown>).command);

/** `plain` hooks without Baton's items; an emptied list reads as null (its key stays). */
function withoutBaton(hooks: Record<string, unknown>): Record<string, unknown> {
  const out = { ...hooks };
  for (const [event, list] of Object.entries(out)) {
    if (!Array.isArray(list) || !list.some(isBatonPlain)) continue;
    const kept = list.filter((item) => !isBatonPlain(item));
    out[event] = kept.length > 0 ? kept : null;
  }
  return out;
}

/** Cuts Baton's items out of every event list (unproven: the callers prove the end result). */
function cutBatonItems(text: string, doc: Document, file: string): string {
  const hooks = hooksMap(doc, file);
  const lists = hooks ? hooks.items.filter((pair) => isSeq(pair.value) && pair.value.items.some(isBatonItem)) : [];
  let next = text;
  // From the end of the text backwards, so the offsets of the lists before stay right.
  for (const pair of [...lists].reverse()) {
    next = removeItems(next, pair.value as YAMLSeq, isBatonItem, file, `hooks.${String((pair.key as { value?: unknown })?.value)}`);
  }
  return next;
}

export function removeYamlHooks(text: string, file: string): string {
  const doc = load(text, file);
  const next = cutBatonItems(text, doc, file);
  if (next === text) return text;
  const before = plainOf(doc);
  if (!proven(before, next, withoutBaton(plainHooks(before)))) unproven(file, 'hooks');
  return next;
}

/**
 * The splices that add `wanted` to the document's hooks: after an event's last item, or as new
 * event lists (creating `hooks` when missing); null when an event's key is there with an empty
 * value (`on_session_end:`), which takes a splice of its own.
 */
function addEdits(text: string, doc: Document, wanted: WantedHook[], file: string): Edit[] | null {
  const hooks = hooksMap(doc, file);
  const items = new Map<string, { command: string; timeout: number }[]>();
  for (const hook of wanted) items.set(hook.event, [...(items.get(hook.event) ?? []), { command: hook.command, timeout: hook.timeout }]);
  const edits: Edit[] = [];
  const fresh: Record<string, unknown> = {};
  for (const [event, add] of items) {
    const list: unknown = hooks?.get(event, true);
    if (hasItems(list)) edits.push(itemsEdit(text, list, add, file, `hooks.${event}`));
    else if (list === undefined) fresh[event] = add;
    else if (isEmptyNode(list)) return null;
    else throw new ConfigEditError(`${file}: "hooks.${event}" is not a list; fix it first — Baton leaves the file untouched.`);
  }
  // New event lists after the last event (and after items appended to it at the same offset).
  if (Object.keys(fresh).length > 0) edits.push(childrenEdit(text, doc, 'hooks', fresh, file));
  return edits;
}

/** Baton's hooks set to `wanted`: one parse to find the places, one to prove the result. */
export function setYamlHooks(text: string, wanted: WantedHook[], file: string): string {
  let doc = load(text, file);
  const found = readHooks(doc, file);
  if (found.size > 0 && sameCommands(found, wanted)) return text;
  const before = plainOf(doc);
  let next = text;
  if (found.size > 0) {
    next = cutBatonItems(text, doc, file);
    doc = load(next, file);
  }
  const edits = addEdits(next, doc, wanted, file);
  if (edits) next = applyEdits(next, edits);
  else {
    // An event key with an empty value: its lines are replaced, one event at a time.
    for (const hook of wanted) {
      const step = load(next, file);
      const list: unknown = hooksMap(step, file)?.get(hook.event, true);
      next = hasItems(list) || list === undefined ? applyEdits(next, addEdits(next, step, [hook], file)!) : setChild(next, step, 'hooks', hook.event, [{ command: hook.command, timeout: hook.timeout }], file);
    }
  }
  const expected = withoutBaton(plainHooks(before));
  for (const hook of wanted) {
    const list = expected[hook.event];
    expected[hook.event] = [...(Array.isArray(list) ? list : []), { command: hook.command, timeout: hook.timeout }];
  }
  if (!proven(before, next, expected)) unproven(file, 'hooks');
  return next;
}

function readHooks(doc: Document, file: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = hooksMap(doc, file);
  if (!hooks) return found;
  for (const pair of hooks.items) {
    if (!isSeq(pair.value)) continue;
    const event = String((pair.key as { value?: unknown })?.value ?? pair.key);
    for (const item of pair.value.items) {
      const command = commandOf(item);
      if (isBatonHookCommand(command)) found.set(event, [...(found.get(event) ?? []), command as string]);
    }
  }
  return found;
}

export function readYamlHooks(text: string, file: string): Map<string, string[]> {
  return readHooks(load(text, file), file);
}
function sameCommands(found: Map<string, string[]>, wanted: WantedHook[]): boolean {
  const a = [...found.entries()].flatMap(([e, cs]) => cs.map((c) => `${e}\n${c}`)).sort();
  const b = wanted.map((w) => `${w.event}\n${w.command}`).sort();
  return JSON.stringify(a) === JSON.stringify(b);
}
