/**
 * Codex's `config.toml`, edited as text. smol-toml can parse but its stringify drops comments and
 * reorders tables, so instead we replace (or append) only the lines of our own table
 * `[mcp_servers.<name>]` (and any `[mcp_servers.<name>.*]` sub-tables), and then prove the edit with
 * smol-toml: everything outside our entry must parse to exactly what it parsed to before. When
 * that proof fails (e.g. the entry was written as an inline table or dotted keys) nothing is
 * written and the message says how to edit by hand.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { isDeepStrictEqual } from 'node:util';
import { ConfigEditError } from './config-edit-error.js';
import { type McpEndpoint } from '../endpoint.js';
import { CODEX_TOKEN_VAR } from './codex-env.js';

type TomlTable = Record<string, unknown>;

export function parseTomlConfig(text: string, file: string): TomlTable {
  try {
    return parseToml(text) as TomlTable;
  } catch (err) {
    const where = err instanceof TomlError ? ` at line ${err.line}` : '';
    throw new ConfigEditError(`${file} is not valid TOML${where}; fix it first — Baton leaves it untouched.`);
  }
}

/** Split a table header's key (`mcp_servers."baton".x`) into its parts. */
export function headerKeys(header: string): string[] {
  const keys: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  let match: RegExpExecArray | null;
  while (re.lastIndex < header.length && (match = re.exec(header)) !== null) {
    keys.push(match[1] !== undefined ? (JSON.parse(`"${match[1]}"`) as string) : (match[2] ?? match[3] ?? ''));
  }
  return keys;
}

// A table or array-of-tables header on its own line, optionally followed by a comment.
const HEADER = /^\s*\[(\[)?\s*([A-Za-z0-9_."' -]+?)\s*\](\])?\s*(?:#.*)?$/;

interface Range {
  start: number;
  /** Exclusive; trailing blank and comment lines stay with whatever follows. */
  end: number;
}

/** Line ranges of `[mcp_servers.<name>]` and its sub-tables. */
function ourRanges(lines: string[], name: string): Range[] {
  const ranges: Range[] = [];
  let current: Range | null = null;
  lines.forEach((line, i) => {
    const m = HEADER.exec(line);
    if (m) {
      if (current) ranges.push(current);
      const keys = headerKeys(m[2]!);
      current = keys[0] === 'mcp_servers' && keys[1] === name ? { start: i, end: i + 1 } : null;
      return;
    }
    const trimmed = line.trim();
    if (current && trimmed !== '' && !trimmed.startsWith('#')) current.end = i + 1;
  });
  if (current) ranges.push(current);
  return ranges;
}

function tomlString(value: string): string {
  return JSON.stringify(value); // a TOML basic string is a JSON string for the characters we write
}

export function codexEntryLines(endpoint: McpEndpoint): string[] {
  // The token comes from an environment variable that Codex loads from $CODEX_HOME/.env
  // (codex-env.ts), so this file holds no secret.
  return [
    `[mcp_servers.${endpoint.name}]`,
    `url = ${tomlString(endpoint.url)}`,
    `bearer_token_env_var = ${tomlString(CODEX_TOKEN_VAR)}`,
    'startup_timeout_sec = 20',
    'tool_timeout_sec = 120',
  ];
}

export function codexEntryValue(endpoint: McpEndpoint): TomlTable {
  return parseToml(codexEntryLines(endpoint).join('\n')).mcp_servers as TomlTable;
}

function withoutEntry(table: TomlTable, name: string): TomlTable {
  const servers = table.mcp_servers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return table;
  const rest = { ...(servers as TomlTable) };
  delete rest[name];
  const copy = { ...table, mcp_servers: rest };
  if (Object.keys(rest).length === 0) delete (copy as TomlTable).mcp_servers;
  return copy;
}

function entryOf(table: TomlTable, name: string): unknown {
  const servers = table.mcp_servers as TomlTable | undefined;
  return servers && typeof servers === 'object' ? servers[name] : undefined;
}

function removeRanges(lines: string[], ranges: Range[]): string[] {
  const out = [...lines];
  for (const range of [...ranges].reverse()) {
    out.splice(range.start, range.end - range.start);
    // Drop the blank line that separated the removed table from what came before, when the removal
    // leaves two blank lines (or a blank line before the end of the file).
    const before = range.start - 1;
    const after = out[range.start];
    const atEof = range.start === out.length - 1 && after === '';
    if (before >= 0 && out[before]!.trim() === '' && (atEof || (after !== undefined && after.trim() === ''))) {
      out.splice(before, 1);
    }
  }
  return out;
}

/** Plain data for comparison (smol-toml's objects and ours differ in prototype, not content). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function check(before: TomlTable, afterText: string, name: string, file: string, wanted: unknown): string {
  let after: TomlTable | null = null;
  try {
    after = parseToml(afterText) as TomlTable;
  } catch {
    // handled below: our edit did not produce valid TOML, so the file's layout is not one we handle
  }
  const intact = after !== null && isDeepStrictEqual(plain(withoutEntry(before, name)), plain(withoutEntry(after, name)));
  if (!after || !intact || !isDeepStrictEqual(plain(entryOf(after, name)), plain(wanted))) {
    throw new ConfigEditError(
      `${file}: the existing "mcp_servers.${name}" entry is written in a form Baton cannot edit safely ` +
        `(inline table or dotted keys). Remove it by hand, then run the command again.`,
    );
  }
  return afterText;
}

export function addTomlEntry(text: string, endpoint: McpEndpoint, file: string): string {
  const before = parseTomlConfig(text, file);
  const wanted = codexEntryValue(endpoint)[endpoint.name];
  if (isDeepStrictEqual(plain(entryOf(before, endpoint.name)), plain(wanted))) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const ranges = ourRanges(lines, endpoint.name);
  const entry = codexEntryLines(endpoint);
  let out: string[];
  if (ranges.length > 0) {
    out = removeRanges(lines, ranges.slice(1));
    out.splice(ranges[0]!.start, ranges[0]!.end - ranges[0]!.start, ...entry);
  } else {
    out = text === '' ? [] : [...lines];
    if (out.length > 0 && out[out.length - 1] === '') out.pop();
    if (out.length > 0) out.push('');
    out.push(...entry, '');
  }
  return check(before, out.join(eol), endpoint.name, file, wanted);
}

export function removeTomlEntry(text: string, name: string, file: string): string {
  const before = parseTomlConfig(text, file);
  if (entryOf(before, name) === undefined) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const out = removeRanges(text.split(/\r?\n/), ourRanges(text.split(/\r?\n/), name));
  return check(before, out.join(eol), name, file, undefined);
}

export function readTomlEntry(text: string, name: string, file: string): unknown {
  return entryOf(parseTomlConfig(text, file), name);
}
