/**
 * Hermes' `config.yaml`. The `yaml` Document API keeps comments, but re-printing a document also
 * normalises things we did not touch (flow-sequence padding, comment spacing). So the edit is a
 * text splice of only our entry's lines at the position the Document API reports, proven by
 * re-parsing: everything outside our entry must parse exactly as before. Where a splice is not
 * possible (flow-style mapping, unusual layout) the Document API's own output is used instead —
 * still comment-preserving, only less byte-faithful.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { parseYamlConfig, parseYamlDocument } from './yaml-parse.js';
import { ConfigEditError } from './config-edit-error.js';
import { bearer, type McpEndpoint } from '../endpoint.js';

const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;

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

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

/** Our entry as block YAML, indented to sit inside `mcp_servers`. */
function renderEntry(name: string, entry: Record<string, unknown>, indent: string, eol: string): string {
  const body = new Document({ [name]: entry }).toString(TO_STRING);
  return body
    .trimEnd()
    .split('\n')
    .map((line) => indent + line)
    .join(eol) + eol;
}

function serversMap(doc: Document): YAMLMap | null | undefined {
  const node: unknown = doc.get('mcp_servers', true);
  if (node === undefined) return undefined;
  if (isMap(node)) return node;
  if (isScalar(node) && node.value === null) return null;
  return undefined;
}

function findPair(map: YAMLMap, name: string): Pair | undefined {
  return map.items.find((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === name);
}

function spliceAdd(text: string, doc: Document, name: string, entry: Record<string, unknown>): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const servers = serversMap(doc);
  if (servers === undefined) {
    if (doc.has('mcp_servers')) return null;
    const prefix = text === '' || text.endsWith('\n') ? text : text + eol;
    return `${prefix}mcp_servers:${eol}${renderEntry(name, entry, '  ', eol)}`;
  }
  if (servers === null || servers.flow || servers.items.length === 0) return null;
  const first = servers.items[0]!;
  const firstKey = first.key as { range?: [number, number, number] } | null;
  if (!firstKey?.range) return null;
  const indent = text.slice(lineStart(text, firstKey.range[0]), firstKey.range[0]);
  if (!/^[ ]*$/.test(indent)) return null;
  const existing = findPair(servers, name);
  const rendered = renderEntry(name, entry, indent, eol);
  if (existing) {
    const span = pairSpan(text, existing);
    return span ? text.slice(0, span.start) + rendered + text.slice(span.end) : null;
  }
  const last = servers.items[servers.items.length - 1]!;
  const span = pairSpan(text, last);
  return span ? text.slice(0, span.end) + rendered + text.slice(span.end) : null;
}

/** From the start of the key's line to the end of the value's last line (trailing comments excluded). */
function pairSpan(text: string, pair: Pair): { start: number; end: number } | null {
  const key = pair.key as { range?: [number, number, number] } | null;
  const value = pair.value as { range?: [number, number, number] } | null;
  if (!key?.range) return null;
  const valueEnd = value?.range ? value.range[1] : key.range[1];
  return { start: lineStart(text, key.range[0]), end: lineEnd(text, Math.max(valueEnd - 1, key.range[0])) };
}

function proven(before: Record<string, unknown>, afterText: string, name: string, wanted: unknown): boolean {
  const after = parseYamlDocument(afterText);
  if (after.errors.length > 0) return false;
  const root = plainOf(after);
  return sameOutsideEntry(before, root, name) && isDeepStrictEqual(entryOf(root, name), wanted);
}

export function addYamlEntry(text: string, endpoint: McpEndpoint, file: string): string {
  const doc = load(text, file);
  const before = plainOf(doc);
  const wanted = hermesEntry(endpoint);
  if (isDeepStrictEqual(entryOf(before, endpoint.name), wanted)) return text;
  const spliced = spliceAdd(text, doc, endpoint.name, wanted);
  if (spliced !== null && proven(before, spliced, endpoint.name, wanted)) return spliced;

  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const servers = serversMap(doc);
  if (servers === null || servers === undefined) {
    if (doc.has('mcp_servers') && servers === undefined) {
      throw new ConfigEditError(`${file}: "mcp_servers" is not a mapping; fix it first — Baton leaves the file untouched.`);
    }
    doc.set('mcp_servers', doc.createNode({}));
  }
  doc.setIn(['mcp_servers', endpoint.name], doc.createNode(wanted));
  return doc.toString(TO_STRING);
}

export function removeYamlEntry(text: string, name: string, file: string): string {
  const doc = load(text, file);
  if (!doc.hasIn(['mcp_servers', name])) return text;
  const before = plainOf(doc);
  const servers = serversMap(doc);
  const pair = servers ? findPair(servers, name) : undefined;
  const span = servers && !servers.flow && pair ? pairSpan(text, pair) : null;
  if (span) {
    const spliced = text.slice(0, span.start) + text.slice(span.end);
    if (proven(before, spliced, name, undefined)) return spliced;
  }
  doc.deleteIn(['mcp_servers', name]);
  return doc.toString(TO_STRING);
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
  const pair = isMap(parent) && !parent.flow ? findPair(parent, at[at.length - 1]!) : undefined;
  const span = pair ? pairSpan(text, pair) : null;
  if (span) {
    const spliced = text.slice(0, span.start) + text.slice(span.end);
    const after = parseYamlDocument(spliced);
    if (after.errors.length === 0 && isDeepStrictEqual(plainOf(after), wanted)) return spliced;
  }
  doc.deleteIn(at);
  return doc.toString(TO_STRING);
}
