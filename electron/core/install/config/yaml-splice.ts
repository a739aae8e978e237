/**
 * Minimal text edits of a YAML config (Hermes' config.yaml): the `yaml` library's Document says
 * where a node's text is; only Baton's own lines are spliced into (or cut out of) the original
 * text, so comments, quoting, indentation, flow style, anchors and blank lines elsewhere keep every
 * byte. Re-printing the document would tidy all of those. A shape where a splice would have to
 * touch the user's lines (a flow-style collection holding entries, an alias, an explicit key) is
 * refused with the reason; the callers prove every splice by parsing the result.
 */
import { Document, isAlias, isMap, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { ConfigEditError } from './config-edit-error.js';

type Range = [number, number, number];

export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

function rangeOf(node: unknown): Range | null {
  const range = (node as { range?: Range } | null | undefined)?.range;
  return Array.isArray(range) ? range : null;
}

/** The file's own indentation step: the first indented mapping line's indentation (2 when none). */
export function indentUnit(text: string): number {
  const match = /^( +)[^\s#-]/m.exec(text);
  return match ? Math.min(match[1]!.length, 8) : 2;
}

/** `value` as block YAML at `column`, nested by `unit` spaces, each line ended by `eol`. */
export function renderBlock(value: unknown, column: number, unit: number, eol: string): string {
  const body = new Document(value).toString({ indent: unit, lineWidth: 0, flowCollectionPadding: false });
  const pad = ' '.repeat(column);
  return body
    .trimEnd()
    .split('\n')
    .map((line) => pad + line)
    .join(eol) + eol;
}

function keyName(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

export function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => keyName(pair) === key);
}

/** The column of a block node's line, when only spaces (and for a list item, its dash) come before it. */
function columnOf(text: string, offset: number, dash: boolean): number | null {
  const start = lineStart(text, offset);
  const prefix = text.slice(start, offset);
  const match = (dash ? /^( *)- +$/ : /^( *)$/).exec(prefix);
  return match ? match[1]!.length : null;
}

/** From the start of the pair's line to the end of its value's last line. */
export function pairSpan(text: string, pair: Pair): { start: number; end: number } | null {
  const key = rangeOf(pair.key);
  if (!key || columnOf(text, key[0], false) === null) return null;
  const value = rangeOf(pair.value);
  const valueEnd = value ? Math.max(value[1], key[1]) : key[1];
  return { start: lineStart(text, key[0]), end: lineEnd(text, Math.max(valueEnd - 1, key[0])) };
}

/** From the start of the item's line (its dash) to the end of its last line. */
function itemSpan(text: string, item: unknown): { start: number; end: number; column: number } | null {
  const range = rangeOf(item);
  if (!range) return null;
  const column = columnOf(text, range[0], true);
  if (column === null) return null;
  return { start: lineStart(text, range[0]), end: lineEnd(text, Math.max(range[1] - 1, range[0])), column };
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function ensureEol(text: string, at: number, eol: string): string {
  return at > 0 && text[at - 1] !== '\n' ? eol : '';
}

/** A value that holds nothing: absent (`key:`), `~`/`null`, `{}` or `[]`. */
function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (isScalar(value)) return value.value === null;
  return (isMap(value) || isSeq(value)) && value.items.length === 0 && value.flow === true;
}

/** One splice: the text from `start` to `end` becomes `insert`. */
export interface Edit {
  start: number;
  end: number;
  insert: string;
}

/** Applies splices that do not overlap; at one offset, the one listed first ends up first. */
export function applyEdits(text: string, edits: Edit[]): string {
  const ordered = edits.map((edit, i) => ({ edit, i })).sort((x, y) => y.edit.start - x.edit.start || y.i - x.i);
  let next = text;
  for (const { edit } of ordered) next = splice(next, edit.start, edit.end, edit.insert);
  return next;
}

/**
 * Replaces an empty value (`key:`, `key: ~`, `key: {}`) with `block` (lines ending in eol) under
 * the key's line: the empty token is cut from that line (a comment after it stays).
 */
function fillEmpty(text: string, pair: Pair, block: string, eol: string, file: string, where: string): Edit {
  const key = rangeOf(pair.key)!;
  const value = rangeOf(pair.value);
  const keyLineEnd = lineEnd(text, key[1]);
  let from = keyLineEnd;
  let rest = '';
  if (value && value[1] > value[0]) {
    // Cut ` {}` / ` ~` (and the spaces before it) from the key's line.
    from = value[0];
    while (from > key[1] && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
    if (text.slice(key[1], from).trim() !== ':') refuse(file, `"${where}" carries a tag or an anchor`);
    rest = text.slice(value[1], keyLineEnd);
  }
  return { start: from, end: keyLineEnd, insert: rest + ensureEol(text, keyLineEnd, eol) + block };
}

function refuse(file: string, what: string): never {
  throw new ConfigEditError(`${file}: ${what}; Baton edits only its own lines and leaves the file untouched. Add Baton's entry by hand, or write that part as a block mapping.`);
}

/** The mapping under the top-level `container` key (null when the key or its value is missing/empty). */
function containerPair(doc: Document, container: string, file: string): Pair | undefined {
  const root = doc.contents;
  if (root === null || root === undefined) return undefined;
  if (!isMap(root)) refuse(file, 'the top level is not a mapping');
  if (root.flow) refuse(file, 'the top level is written in flow style ({…})');
  return findPair(root, container);
}

/**
 * Sets `container.<key>` for each of `entries`: appended under the container with its own
 * indentation, the container created at the end of the file when missing, an existing key (only
 * one entry then) replaced in place.
 */
export function childrenEdit(text: string, doc: Document, container: string, entries: Record<string, unknown>, file: string): Edit {
  const eol = eolOf(text);
  const unit = indentUnit(text);
  const pair = containerPair(doc, container, file);
  if (!pair) {
    const at = text.length;
    return { start: at, end: at, insert: ensureEol(text, at, eol) + `${container}:${eol}` + renderBlock(entries, unit, unit, eol) };
  }
  if (isEmptyValue(pair.value)) {
    const column = columnOf(text, rangeOf(pair.key)?.[0] ?? 0, false);
    if (column === null) refuse(file, `"${container}" does not start its own line`);
    return fillEmpty(text, pair, renderBlock(entries, column + unit, unit, eol), eol, file, container);
  }
  const map = pair.value;
  if (isAlias(map)) refuse(file, `"${container}" is an alias (*…) of another part of the file`);
  if (!isMap(map)) refuse(file, `"${container}" is not a mapping`);
  if (map.flow) refuse(file, `"${container}" is written in flow style ({…})`);
  const first = rangeOf(map.items[0]?.key);
  const column = first ? columnOf(text, first[0], false) : null;
  if (column === null) refuse(file, `the entries of "${container}" are not laid out one per line`);
  const keys = Object.keys(entries);
  const existing = keys.length === 1 ? findPair(map, keys[0]!) : undefined;
  const target = existing ?? map.items[map.items.length - 1]!;
  const span = pairSpan(text, target);
  if (!span) refuse(file, `the entries of "${container}" are not laid out one per line`);
  const block = renderBlock(entries, column, nestedUnit(text, map) ?? unit, eol);
  if (existing) return { start: span.start, end: span.end, insert: block };
  return { start: span.end, end: span.end, insert: ensureEol(text, span.end, eol) + block };
}

/** Sets `container.key` to `value` (see childrenEdit). */
export function setChild(text: string, doc: Document, container: string, key: string, value: unknown, file: string): string {
  return applyEdits(text, [childrenEdit(text, doc, container, { [key]: value }, file)]);
}

/** How far the mapping's entries indent their own children (its first nested block's step). */
function nestedUnit(text: string, map: YAMLMap): number | null {
  for (const pair of map.items) {
    const inner = pair.value;
    const key = rangeOf(pair.key);
    if (!key || !(isMap(inner) || isSeq(inner)) || inner.flow || inner.items.length === 0) continue;
    const child = isMap(inner) ? rangeOf((inner.items[0] as Pair).key) : rangeOf(inner.items[0]);
    if (!child) continue;
    const outer = key[0] - lineStart(text, key[0]);
    const innerColumn = isMap(inner) ? child[0] - lineStart(text, child[0]) : (columnOf(text, child[0], true) ?? -1);
    if (innerColumn > outer) return innerColumn - outer;
  }
  return null;
}

/** Cuts the lines of `container.key` (the pair must be in a block mapping). */
export function removeChild(text: string, doc: Document, container: string, key: string, file: string): string {
  const pair = containerPair(doc, container, file);
  const map = pair?.value;
  if (!isMap(map)) return text;
  const child = findPair(map, key);
  if (!child) return text;
  if (map.flow) refuse(file, `"${container}" is written in flow style ({…})`);
  const span = pairSpan(text, child);
  if (!span) refuse(file, `the entries of "${container}" are not laid out one per line`);
  return splice(text, span.start, span.end, '');
}

/** Cuts a top-level or nested pair's lines (for an emptied container); null when it cannot be cut. */
export function removePair(text: string, parent: unknown, key: string): string | null {
  if (!isMap(parent) || parent.flow) return null;
  const pair = findPair(parent, key);
  const span = pair ? pairSpan(text, pair) : null;
  return span ? splice(text, span.start, span.end, '') : null;
}

/** Appends `items` to a block list after its last item, at the list's own column. */
export function itemsEdit(text: string, list: YAMLSeq, items: unknown[], file: string, where: string): Edit {
  if (list.flow) refuse(file, `"${where}" is written in flow style ([…])`);
  const eol = eolOf(text);
  const first = itemSpan(text, list.items[0]);
  const last = itemSpan(text, list.items[list.items.length - 1]);
  if (!first || !last) refuse(file, `the items of "${where}" are not laid out one per line`);
  // The user's own dash spacing (`-   command:`) is kept for Baton's items too.
  const step = Math.max(itemUnit(text, list) ?? 2, 2);
  const pad = ' '.repeat(first.column);
  const block = items
    .flatMap((item) =>
      renderBlock(item, 0, indentUnit(text), '\n')
        .trimEnd()
        .split('\n')
        .map((line, i) => (i === 0 ? `${pad}-${' '.repeat(step - 1)}${line}` : `${pad}${' '.repeat(step)}${line}`)),
    )
    .map((line) => line + eol)
    .join('');
  return { start: last.end, end: last.end, insert: ensureEol(text, last.end, eol) + block };
}

/** The step from a list's dash to its items' keys (`- command:` → 2). */
function itemUnit(text: string, list: YAMLSeq): number | null {
  const first = rangeOf(list.items[0]);
  if (!first) return null;
  const dash = columnOf(text, first[0], true);
  return dash === null ? null : first[0] - lineStart(text, first[0]) - dash;
}

/** Cuts the lines of the list items `drop` selects; the key stays (an emptied list reads as null). */
export function removeItems(text: string, list: YAMLSeq, drop: (item: unknown) => boolean, file: string, where: string): string {
  const spans = list.items.filter(drop).map((item) => ({ item, span: itemSpan(text, item) }));
  if (spans.length === 0) return text;
  if (list.flow) refuse(file, `"${where}" is written in flow style ([…])`);
  let next = text;
  for (const { span } of spans.reverse()) {
    if (!span) refuse(file, `the items of "${where}" are not laid out one per line`);
    next = splice(next, span.start, span.end, '');
  }
  return next;
}

/** A list that has items (to append to); an empty one is replaced whole. */
export function hasItems(value: unknown): value is YAMLSeq {
  return isSeq(value) && value.items.length > 0;
}

/** An empty value: absent, null, `[]` or `{}`. */
export function isEmptyNode(value: unknown): boolean {
  return value === undefined || isEmptyValue(value) || ((isMap(value) || isSeq(value)) && value.items.length === 0);
}
