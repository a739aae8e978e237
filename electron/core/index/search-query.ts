/**
 * The search box language, parsed by hand into plain data so that nothing a user types ever reaches
 * FTS5 as syntax: words, "quoted phrases", `prefix*`, `-excluded`, and filters `agent:`, `project:`
 * (cwd substring), `branch:`, `after:`/`before:` (dates). Every term becomes a quoted FTS string,
 * so `"`, `*`, `-`, `NEAR(`, `AND`, `:` and unbalanced quotes are just characters to look for.
 */
import type { SessionFilter } from './session-filter-sql.js';
import { isAgentId, type AgentId } from '../../../shared/model.js';
import { hasTokens, queryForm } from './fts-text.js';

export interface SearchTerm {
  text: string;
  /** Typed as `word*`: the last word of the term matches as a prefix. */
  prefix: boolean;
  negated: boolean;
}

/** The filters a query may carry (`agent:`, `project:`, `branch:`, `after:`, `before:`). */
export type SearchFilters = SessionFilter;

export interface ParsedQuery {
  terms: SearchTerm[];
  filters: SearchFilters;
}

const FILTER_KEYS = new Set(['agent', 'project', 'branch', 'after', 'before']);

/** Splits into raw tokens, honouring double quotes; an unbalanced quote runs to the end. */
interface RawToken {
  raw: string;
  quoted: boolean;
  negated: boolean;
  key?: string;
}

function tokenize(input: string): RawToken[] {
  const out: RawToken[] = [];
  let i = 0;
  const s = input.normalize('NFC');
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (i >= s.length) break;
    // `-word` excludes, but only for words of three characters or more: `ls -la` means the flag, not "not la".
    let negated = false;
    const exclusion = /^-("[^"]{3,}"|[^\s"-]{3,})/.exec(s.slice(i));
    if (exclusion) {
      negated = true;
      i++;
    }
    // key:"quoted value" or key:value
    const keyMatch = /^([A-Za-z]+):/.exec(s.slice(i));
    if (keyMatch && FILTER_KEYS.has(keyMatch[1]!.toLowerCase())) {
      i += keyMatch[0].length;
      const value = readValue();
      out.push({ raw: value.text, quoted: value.quoted, negated: false, key: keyMatch[1]!.toLowerCase() });
      continue;
    }
    const value = readValue();
    out.push({ raw: value.text, quoted: value.quoted, negated });
  }
  return out;

  function readValue(): { text: string; quoted: boolean } {
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      const text = end < 0 ? s.slice(i + 1) : s.slice(i + 1, end);
      i = end < 0 ? s.length : end + 1;
      return { text, quoted: true };
    }
    const start = i;
    while (i < s.length && !/\s/.test(s[i]!)) i++;
    return { text: s.slice(start, i), quoted: false };
  }
}

/** Accepts YYYY, YYYY-MM, YYYY-MM-DD and full ISO timestamps; anything else is not a date. */
export function parseDate(value: string): Date | null {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(value);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), m[2] ? Number(m[2]) - 1 : 0, m[3] ? Number(m[3]) : 1));
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function parseSearchQuery(input: string): ParsedQuery {
  const terms: SearchTerm[] = [];
  const filters: SearchFilters = {};
  for (const token of tokenize(input)) {
    if (token.key) {
      const value = token.raw.trim();
      if (!value) continue;
      if (token.key === 'agent' && isAgentId(value.toLowerCase())) filters.agent = value.toLowerCase() as AgentId;
      else if (token.key === 'project') filters.project = value;
      else if (token.key === 'branch') filters.branch = value;
      else if (token.key === 'after' || token.key === 'before') {
        const date = parseDate(value);
        if (date) filters[token.key] = date.toISOString();
        else addTerm(`${token.key}:${value}`, false, false); // not a date: search for the literal text
      } else addTerm(`${token.key}:${value}`, false, false);
      continue;
    }
    addTerm(token.raw, token.quoted, token.negated);
  }
  // A query of only exclusions has nothing to exclude from: search for the text itself instead.
  if (terms.length > 0 && terms.every((t) => t.negated)) {
    for (const t of terms) {
      t.text = `-${t.text}`;
      t.negated = false;
    }
  }
  return { terms, filters };

  function addTerm(raw: string, quoted: boolean, negated: boolean): void {
    let text = raw;
    let prefix = false;
    if (!quoted && text.endsWith('*') && text.length > 1) {
      prefix = true;
      text = text.replace(/\*+$/, '');
    }
    text = text.trim();
    if (!text) return;
    terms.push({ text, prefix, negated });
  }
}

/** An FTS5 string literal: the only FTS syntax we emit is `"…"` joined by AND / NOT. */
function ftsString(text: string): string {
  // Control characters (NUL ends the string for SQLite's FTS parser) are separators to the tokenizer anyway.
  return `"${text.replace(/[\u0000-\u001f]/g, ' ').replace(/"/g, '""')}"`;
}

/** A term as FTS5 syntax: a quoted string (a phrase of its tokens), `*` after it for a prefix. */
function ftsTerm(t: SearchTerm): string {
  return `${ftsString(queryForm(t.text))}${t.prefix ? ' *' : ''}`;
}

/**
 * The MATCH expression, or null when no positive term has anything to search for (`--`, `*`).
 * Negated terms need at least one positive term to subtract from.
 */
export function toFtsMatch(q: ParsedQuery): string | null {
  const positive = q.terms.filter((t) => !t.negated && hasTokens(t.text));
  if (positive.length === 0) return null;
  const negative = q.terms.filter((t) => t.negated && hasTokens(t.text));
  let expr = positive.map(ftsTerm).join(' AND ');
  for (const t of negative) expr = `(${expr}) NOT ${ftsTerm(t)}`;
  return expr;
}

/** One- and two-letter ASCII words (`ls`, `go`) are highlighted as whole words only. */
export function isShortWord(text: string): boolean {
  return /^[a-z0-9]{1,2}$/i.test(text);
}

/** Escapes a LIKE pattern fragment (used with `ESCAPE '\\'`). */
export function likeFragment(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
