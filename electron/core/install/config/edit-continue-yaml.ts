/**
 * Baton's MCP entry in Continue `cn`'s `config.yaml`: `mcpServers` is a LIST of `{name, type, url,
 * requestOptions}` (config-yaml's mcpServerSchema, cn 1.5.47), so Baton's entry is the item named
 * `baton`. Only that item's lines are spliced in or cut out (yaml-splice.ts), each splice proven by
 * parsing the result: everything but Baton's item must read as before.
 *
 * cn reads ~/.continue/config.yaml only when it exists; without it cn runs on its Continue Hub
 * config. Creating the file would swap that for a config with no model, so Baton refuses instead.
 */
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { isSeq, type Document, type YAMLSeq } from 'yaml';
import { bearer, type McpEndpoint } from '../endpoint.js';
import { ConfigEditError } from './config-edit-error.js';
import { unproven } from './edit-yaml.js';
import { parseYamlConfig, parseYamlDocument } from './yaml-parse.js';
import { applyEdits, eolOf, hasItems, isEmptyNode, itemsEdit, removeItems, removePair, renderBlock } from './yaml-splice.js';

const KEY = 'mcpServers';

export function continueEntry(endpoint: McpEndpoint): Record<string, unknown> {
  return { name: endpoint.name, type: 'streamable-http', url: endpoint.url, requestOptions: { headers: { Authorization: bearer(endpoint) } } };
}

function plainOf(doc: Document): Record<string, unknown> {
  return (doc.toJS() ?? {}) as Record<string, unknown>;
}

function named(name: string) {
  return (item: unknown): boolean => item !== null && typeof item === 'object' && (item as Record<string, unknown>).name === name;
}

/** A YAML node (or plain item) named `name`: the list item is a mapping with that `name`. */
function nodeNamed(name: string) {
  return (item: unknown): boolean => (item as { get?: (k: string) => unknown } | null)?.get?.('name') === name;
}

function serverList(root: Record<string, unknown>, file: string): unknown[] {
  const servers = root[KEY];
  if (servers === undefined || servers === null) return [];
  if (!Array.isArray(servers)) throw new ConfigEditError(`${file}: "${KEY}" is not a list; fix it first — Baton leaves the file untouched.`);
  return servers;
}

/** The spliced text reads as `before` with `mcpServers` as `servers` (null: an emptied list). */
function proven(before: Record<string, unknown>, afterText: string, servers: unknown[] | null): boolean {
  const doc = parseYamlDocument(afterText);
  if (doc.errors.length > 0) return false;
  const after = plainOf(doc);
  const others = (root: Record<string, unknown>) => Object.keys(root).filter((k) => k !== KEY);
  const keys = others(before);
  if (keys.length !== others(after).length || !keys.every((k) => Object.hasOwn(after, k) && isDeepStrictEqual(before[k], after[k]))) return false;
  return isDeepStrictEqual(after[KEY] ?? null, servers);
}

/** Where the file's other top-level lists put their dashes (`models:` then `  - name: …`): 2 when none. */
function listColumn(text: string): number {
  const match = /^[^\s#][^\n]*:[ \t]*\r?\n( *)- /m.exec(text);
  return match ? match[1]!.length : 2;
}

function listNode(doc: Document, file: string): YAMLSeq {
  const node: unknown = doc.get(KEY, true);
  if (!isSeq(node)) unproven(file, KEY);
  return node;
}

export function readContinueEntry(text: string, name: string, file: string): unknown {
  return serverList(plainOf(parseYamlConfig(text, file)), file).find(named(name));
}

/** Baton's item after the last server; `mcpServers:` created at the end of the file when missing or empty. */
export function addContinueEntry(text: string, endpoint: McpEndpoint, file: string): string {
  if (text === '' && !fs.existsSync(file)) {
    throw new ConfigEditError(
      `${file} does not exist: cn then runs on its Continue Hub config, and a new config.yaml would replace that with one that has no model. Baton leaves it alone; create cn's local config.yaml first (or add Baton to your Hub agent's MCP servers).`,
    );
  }
  let doc = parseYamlConfig(text, file);
  const before = plainOf(doc);
  const wanted = continueEntry(endpoint);
  const servers = serverList(before, file);
  const mine = servers.filter(named(endpoint.name));
  if (mine.length === 1 && isDeepStrictEqual(mine[0], wanted)) return text;
  let next = text;
  if (mine.length > 0) {
    next = removeItems(text, listNode(doc, file), nodeNamed(endpoint.name), file, KEY);
    doc = parseYamlConfig(next, file);
  }
  const list: unknown = doc.get(KEY, true);
  if (hasItems(list)) next = applyEdits(next, [itemsEdit(next, list, [wanted], file, KEY)]);
  else {
    if (list !== undefined) {
      if (!isEmptyNode(list) && !isSeq(list)) unproven(file, KEY);
      const cut = removePair(next, doc.contents, KEY);
      if (cut === null) unproven(file, KEY);
      next = cut;
    }
    const eol = eolOf(next);
    const sep = next.length > 0 && !next.endsWith('\n') ? eol : '';
    next = `${next}${sep}${KEY}:${eol}${renderBlock([wanted], listColumn(next), 2, eol)}`;
  }
  if (!proven(before, next, [...servers.filter((s) => !named(endpoint.name)(s)), wanted])) unproven(file, KEY);
  return next;
}

export function removeContinueEntry(text: string, name: string, file: string): string {
  const doc = parseYamlConfig(text, file);
  const before = plainOf(doc);
  const servers = serverList(before, file);
  if (!servers.some(named(name))) return text;
  const next = removeItems(text, listNode(doc, file), nodeNamed(name), file, KEY);
  const kept = servers.filter((s) => !named(name)(s));
  if (!proven(before, next, kept.length > 0 ? kept : null)) unproven(file, KEY);
  return next;
}

/** cn's config: Baton's entry may bring `mcpServers`. */
export const CONTINUE_ENTRY_CONTAINERS: string[][] = [[KEY]];
