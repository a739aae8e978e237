/**
 * Baton's entries in Hermes' `config.yaml`: `hooks.<event>` is a list of `{command, timeout}`
 * (Hermes' shell hooks). Edited through the `yaml` Document API, which keeps comments; a file
 * that does not parse is refused. (Uninstall restores the exact bytes from the backup when the
 * file was not changed since the install; see hooks-installer.ts.)
 */
import { isMap, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { parseYamlConfig } from '../config/yaml-parse.js';
import { ConfigEditError } from '../config/config-edit-error.js';
import { isBatonHookCommand } from './hook-command.js';
import type { WantedHook } from './json-hooks.js';

const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;

const load = parseYamlConfig;

function hooksMap(doc: Document, file: string, create: boolean): YAMLMap | null {
  const node: unknown = doc.get('hooks', true);
  if (node === undefined || node === null || (typeof node === 'object' && 'value' in node && (node as { value: unknown }).value === null)) {
    if (!create) return null;
    if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
    doc.set('hooks', doc.createNode({}));
    return doc.get('hooks', true) as YAMLMap;
  }
  if (!isMap(node)) throw new ConfigEditError(`${file}: "hooks" is not a mapping; fix it first — Baton leaves the file untouched.`);
  return node;
}

function commandOf(item: unknown): unknown {
  return isMap(item) ? item.get('command') : undefined;
}

export function removeYamlHooks(text: string, file: string): string {
  const doc = load(text, file);
  const hooks = hooksMap(doc, file, false);
  if (!hooks) return text;
  let changed = false;
  for (const pair of [...hooks.items]) {
    const list = pair.value;
    if (!isSeq(list)) continue;
    const keep = (list as YAMLSeq).items.filter((item) => !isBatonHookCommand(commandOf(item)));
    if (keep.length === list.items.length) continue;
    changed = true;
    // An emptied list stays: the installer removes the containers Baton created, and only those.
    (list as YAMLSeq).items = keep;
  }
  if (!changed) return text;
  return doc.toString(TO_STRING);
}

export function setYamlHooks(text: string, wanted: WantedHook[], file: string): string {
  if (readYamlHooks(text, file).size > 0 && sameCommands(readYamlHooks(text, file), wanted)) return text;
  const doc = load(removeYamlHooks(text, file), file);
  const hooks = hooksMap(doc, file, true)!;
  for (const hook of wanted) {
    const entry = doc.createNode({ command: hook.command, timeout: hook.timeout });
    const list: unknown = hooks.get(hook.event, true);
    if (isSeq(list)) list.items.push(entry);
    else if (list === undefined || list === null) hooks.set(hook.event, doc.createNode([{ command: hook.command, timeout: hook.timeout }]));
    else throw new ConfigEditError(`${file}: "hooks.${hook.event}" is not a list; fix it first — Baton leaves the file untouched.`);
  }
  return doc.toString(TO_STRING);
}

export function readYamlHooks(text: string, file: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = hooksMap(load(text, file), file, false);
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

function sameCommands(found: Map<string, string[]>, wanted: WantedHook[]): boolean {
  const a = [...found.entries()].flatMap(([e, cs]) => cs.map((c) => `${e}\n${c}`)).sort();
  const b = wanted.map((w) => `${w.event}\n${w.command}`).sort();
  return JSON.stringify(a) === JSON.stringify(b);
}
