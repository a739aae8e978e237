/**
 * Baton's MCP entry in Hermes' `config.yaml` (`mcp_servers.<name>`), edited by splicing only the
 * entry's lines into the text (yaml-splice.ts): every other byte stays. Each splice is proven by
 * parsing the result — everything outside the entry must read exactly as before — and a file
 * where that cannot be done is refused with the reason, never re-printed.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type Document } from 'yaml';
import { parseYamlConfig, parseYamlDocument } from './yaml-parse.js';
import { ConfigEditError } from './config-edit-error.js';
import { removeChild, removePair, setChild } from './yaml-splice.js';
import { bearer, type McpEndpoint } from '../endpoint.js';

const load = parseYamlConfig;

export function hermesEntry(endpoint: McpEndpoint): Record<string, unknown> {
  return { url: endpoint.url, headers: { Authorization: bearer(endpoint) }, timeout: 120, connect_timeout: 60 };
}

function plainOf(doc: Document): Record<string, unknown> {
  return (doc.toJS() ?? {}) as Record<string, unknown>;
}

/** `mcp_servers` without our entry (undefined when nothing else is left in it). */
function otherServers(root: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const servers = root.mcp_servers;
  if (servers === null || servers === undefined || typeof servers !== 'object') return undefined;
  const copy = { ...(servers as Record<string, unknown>) };
  delete copy[name];
  return Object.keys(copy).length > 0 ? copy : undefined;
}

/**
 * Whether two documents agree outside our entry, key by key (no copies of the top level: a
 * config may have tens of thousands of keys).
 */
function sameOutsideEntry(a: Record<string, unknown>, b: Record<string, unknown>, name: string): boolean {
  const keys = (root: Record<string, unknown>) => Object.keys(root).filter((k) => k !== 'mcp_servers');
  const ka = keys(a);
  if (ka.length !== keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && isDeepStrictEqual(a[k], b[k])) && isDeepStrictEqual(otherServers(a, name), otherServers(b, name));
}

function entryOf(root: Record<string, unknown>, name: string): unknown {
  const servers = root.mcp_servers as Record<string, unknown> | null | undefined;
  return servers && typeof servers === 'object' ? servers[name] : undefined;
}

function proven(before: Record<string, unknown>, afterText: string, name: string, wanted: unknown): boolean {
  const after = parseYamlDocument(afterText);
  if (after.errors.length > 0) return false;
  const root = plainOf(after);
  return sameOutsideEntry(before, root, name) && isDeepStrictEqual(entryOf(root, name), wanted);
}

/** A splice that would change more than Baton's lines (anchors, aliases, an unusual layout): refused. */
export function unproven(file: string, where = 'mcp_servers'): never {
  throw new ConfigEditError(`${file}: Baton could not change its entry without changing other lines (anchors, aliases or an unusual layout around "${where}"); Baton leaves it untouched. Edit it by hand.`);
}

export function addYamlEntry(text: string, endpoint: McpEndpoint, file: string): string {
  const doc = load(text, file);
  const before = plainOf(doc);
  const wanted = hermesEntry(endpoint);
  if (isDeepStrictEqual(entryOf(before, endpoint.name), wanted)) return text;
  const servers: unknown = before.mcp_servers;
  if (servers !== undefined && servers !== null && (typeof servers !== 'object' || Array.isArray(servers))) {
    throw new ConfigEditError(`${file}: "mcp_servers" is not a mapping; fix it first — Baton leaves the file untouched.`);
  }
  const spliced = setChild(text, doc, 'mcp_servers', endpoint.name, wanted, file);
  if (!proven(before, spliced, endpoint.name, wanted)) unproven(file);
  return spliced;
}

export function removeYamlEntry(text: string, name: string, file: string): string {
  const doc = load(text, file);
  if (!doc.hasIn(['mcp_servers', name])) return text;
  const spliced = removeChild(text, doc, 'mcp_servers', name, file);
  if (!proven(plainOf(doc), spliced, name, undefined)) unproven(file);
  return spliced;
}

export function readYamlEntry(text: string, name: string, file: string): unknown {
  return entryOf(plainOf(load(text, file)), name);
}

/** Hermes' config: Baton's entry may bring `mcp_servers`. */
export const YAML_ENTRY_CONTAINERS: string[][] = [['mcp_servers']];

function withoutPath(value: unknown, at: string[]): unknown {
  if (at.length === 0 || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = at as [string, ...string[]];
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0) delete copy[head];
  else copy[head] = withoutPath(copy[head], rest);
  return copy;
}

/**
 * Removes the key at `at` when its value is an empty mapping or list, or null (what is left of a
 * container once Baton's entries are out): a splice of its lines, proven by re-parsing.
 */
export function removeEmptyYaml(text: string, at: string[], file: string): string {
  const doc = load(text, file);
  const node: unknown = doc.getIn(at, true);
  if (node === undefined) return text;
  const empty = (isScalar(node) && node.value === null) || ((isMap(node) || isSeq(node)) && node.items.length === 0);
  if (!empty) return text;
  const wanted = withoutPath(plainOf(doc), at);
  const parent: unknown = at.length === 1 ? doc.contents : doc.getIn(at.slice(0, -1), true);
  const spliced = removePair(text, parent, at[at.length - 1]!);
  if (spliced === null) unproven(file, at.join('.'));
  const after = parseYamlDocument(spliced);
  if (after.errors.length > 0 || !isDeepStrictEqual(plainOf(after), wanted)) unproven(file, at.join('.'));
  return spliced;
}
