/**
 * The one secret redactor: briefs, MCP results and errors, the HTTP/IPC API and CLI output all pass
 * through it. secretlint's recommended preset finds the well-known credential formats; our own
 * patterns (redaction/known-secrets.ts) cover what it does not. Each secret becomes
 * `[REDACTED:<kind>]`; the counts by kind go into the brief result.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { applyFindings, knownSecretFindings, resolveFindings, type Finding } from './known-secrets.js';

export type RedactionCounts = Record<string, number>;

const SECRETLINT_KINDS: Record<string, string> = {
  '@secretlint/secretlint-rule-database-connection-string': 'password_in_url',
  '@secretlint/secretlint-rule-basicauth': 'password_in_url',
  '@secretlint/secretlint-rule-privatekey': 'private_key',
};

function kindOf(ruleId: string, messageId: string): string {
  const mapped = SECRETLINT_KINDS[ruleId];
  if (mapped) return mapped;
  return messageId
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

const SECRET_CHAR = /[A-Za-z0-9+/=_-]/;

async function secretlintFindings(text: string): Promise<Finding[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'brief.txt', ext: '.txt', contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] }, noPhysicFilePath: true },
  });
  return result.messages.map((m) => {
    const start = m.range[0];
    let end = m.range[1];
    // Some rules report a range shorter than the value; extend to the end of the token.
    while (end < text.length && SECRET_CHAR.test(text[end]!)) end++;
    return { start, end, kind: kindOf(m.ruleId, m.messageId) };
  });
}

export interface RedactionResult<T> {
  value: T;
  counts: RedactionCounts;
}

export async function redactText(text: string): Promise<RedactionResult<string>> {
  const { value, counts } = await redactStrings([text]);
  return { value: value[0] ?? text, counts };
}

// secretlint's rules all look for a long token, a URL with credentials or a key block; a string
// with none of these (most titles, paths, tool names) is not worth a secretlint pass.
const SECRETLINT_CANDIDATE = /[A-Za-z0-9+/=_-]{16,}|:\/\/\S*@|PRIVATE KEY/;

interface Redacted {
  text: string;
  counts: [kind: string, n: number][];
}

// The same titles and prompts are redacted again on every list, search and refresh: remember
// recent answers (bounded; cleared wholesale when full, which is cheap and rare).
const CACHE_LIMIT = 20_000;
const MAX_CACHED_LENGTH = 4096;
const cache = new Map<string, Redacted>();

function remember(text: string, redacted: Redacted): void {
  if (text.length > MAX_CACHED_LENGTH) return;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, redacted);
}

/**
 * Redacts many strings with one secretlint pass: the strings that could hold a secret secretlint
 * knows are joined with a separator no secret can span, and findings are mapped back to their string.
 */
export async function redactStrings(texts: string[]): Promise<RedactionResult<string[]>> {
  // A list repeats many values (agents, models, folders, times): each distinct string is looked at once.
  const unique = [...new Set(texts)];
  const results: (Redacted | undefined)[] = unique.map((t) => cache.get(t));
  const toLint: number[] = [];
  unique.forEach((t, i) => {
    if (!results[i] && SECRETLINT_CANDIDATE.test(t)) toLint.push(i);
  });
  const fromLint = await lintMany(toLint.map((i) => unique[i]!));
  const lintOf = new Map(toLint.map((textIndex, k) => [textIndex, fromLint[k]!]));
  const redactedOf = new Map<string, Redacted>();
  unique.forEach((t, i) => {
    let r = results[i];
    if (!r) {
      const own = knownSecretFindings(t);
      // For URLs we hide only the password (host and user stay readable), so our narrower finding
      // replaces secretlint's whole-URL one.
      const urlPasswords = own.filter((f) => f.kind === 'password_in_url');
      const lint = (lintOf.get(i) ?? []).filter(
        (f) => f.kind !== 'password_in_url' || !urlPasswords.some((u) => u.start >= f.start && u.end <= f.end),
      );
      const mine: RedactionCounts = {};
      r = { text: applyFindings(t, resolveFindings([...lint, ...own]), mine), counts: Object.entries(mine) };
      remember(t, r);
    }
    redactedOf.set(t, r);
  });
  const counts: RedactionCounts = {};
  const value = texts.map((t) => {
    const r = redactedOf.get(t)!;
    for (const [kind, n] of r.counts) counts[kind] = (counts[kind] ?? 0) + n;
    return r.text;
  });
  return { value, counts: sortCounts(counts) };
}

/** secretlint's findings for each text, from one pass over all of them. */
async function lintMany(texts: string[]): Promise<Finding[][]> {
  const perText: Finding[][] = texts.map(() => []);
  if (texts.length === 0) return perText;
  const SEP = '\n\u0000\u0000\n';
  const joined = texts.join(SEP);
  const offsets: number[] = [];
  let at = 0;
  for (const t of texts) {
    offsets.push(at);
    at += t.length + SEP.length;
  }
  for (const f of await secretlintFindings(joined)) {
    const i = locate(offsets, f.start);
    const base = offsets[i]!;
    if (f.end - base > texts[i]!.length) continue; // spans a separator: not a real secret
    perText[i]!.push({ start: f.start - base, end: f.end - base, kind: f.kind });
  }
  return perText;
}

function locate(offsets: number[], pos: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function sortCounts(counts: RedactionCounts): RedactionCounts {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** Redacts every string inside a JSON-like value (keys untouched). */
export async function redactDeep<T>(value: T): Promise<RedactionResult<T>> {
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  const { value: redacted, counts } = await redactStrings(strings);
  let i = 0;
  const rebuild = (v: unknown): unknown => {
    if (typeof v === 'string') return redacted[i++];
    if (Array.isArray(v)) return v.map(rebuild);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rebuild(x)]));
    return v;
  };
  return { value: rebuild(value) as T, counts };
}

/** `value` with every string in it redacted: what an output boundary sends instead of `value`. */
export async function redactForOutput<T>(value: T): Promise<T> {
  return (await redactDeep(value)).value;
}
