/**
 * Secret redaction before a brief leaves the core. secretlint's recommended preset finds the
 * well-known credential formats; our own patterns cover what it does not (AWS key ids outside
 * config files, OpenAI/Google keys, JWTs, bearer tokens, passwords inside URLs, `API_KEY=…` lines).
 * Each secret becomes `[REDACTED:<kind>]`; the counts by kind go into the brief result.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';

export type RedactionCounts = Record<string, number>;

interface Finding {
  start: number;
  end: number;
  kind: string;
}

interface OwnPattern {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret (default: whole match). */
  group?: number;
}

const OWN_PATTERNS: OwnPattern[] = [
  { kind: 'private_key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'aws_access_key_id', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { kind: 'anthropic_api_key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_api_key', re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'github_token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'stripe_key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', re: /\bBearer\s+([A-Za-z0-9._~+/-]{12,}=*)/g, group: 1 },
  { kind: 'password_in_url', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/'"]+:([^\s@/'"]+)@/gi, group: 1 },
  {
    kind: 'env_secret',
    // NAME=value / NAME: value where NAME says it is a secret; the value must look like one
    // (not a variable reference or a placeholder in angle brackets).
    re: /(?:^|[\s;'"(])(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|PRIVATE|AUTH)[A-Za-z0-9_]*\s*[=:]\s*['"]?(?![$<{[])([^\s'"`,;]{6,})/gim,
    group: 1,
  },
];

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

// Compiled once with the `d` flag (match indices), so a capture group's span can be replaced.
const COMPILED = OWN_PATTERNS.map((p) => ({ ...p, re: new RegExp(p.re.source, p.re.flags.includes('d') ? p.re.flags : p.re.flags + 'd') }));
// Cheap pre-check: most strings (paths, tool names) contain nothing any pattern could match.
const MAYBE_SECRET = /[A-Za-z0-9_-]{12,}|PRIVATE KEY|:\/\/[^\s@]+@|[=:]/;

function ownFindings(text: string): Finding[] {
  const out: Finding[] = [];
  if (!MAYBE_SECRET.test(text)) return out;
  for (const { kind, re, group } of COMPILED) {
    for (const m of text.matchAll(re)) {
      const span = group ? m.indices?.[group] : m.indices?.[0];
      if (!span) continue;
      if (text.startsWith('[REDACTED:', span[0])) continue;
      out.push({ start: span[0], end: span[1], kind });
    }
  }
  return out;
}

/** Non-overlapping findings, earliest first; on overlap the earlier (then longer) one wins. */
function resolve(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Finding[] = [];
  for (const f of sorted) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) {
      if (f.end > last.end) last.end = f.end;
      continue;
    }
    kept.push({ ...f });
  }
  return kept;
}

function apply(text: string, findings: Finding[], counts: RedactionCounts): string {
  let out = '';
  let pos = 0;
  for (const f of findings) {
    out += text.slice(pos, f.start) + `[REDACTED:${f.kind}]`;
    pos = f.end;
    counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  }
  return out + text.slice(pos);
}

export interface RedactionResult<T> {
  value: T;
  counts: RedactionCounts;
}

export async function redactText(text: string): Promise<RedactionResult<string>> {
  const { value, counts } = await redactStrings([text]);
  return { value: value[0] ?? text, counts };
}

/**
 * Redacts many strings with one secretlint pass: they are joined with a separator no secret can
 * span, and findings are mapped back to their string.
 */
export async function redactStrings(texts: string[]): Promise<RedactionResult<string[]>> {
  const SEP = '\n\u0000\u0000\n';
  const joined = texts.join(SEP);
  const offsets: number[] = [];
  let at = 0;
  for (const t of texts) {
    offsets.push(at);
    at += t.length + SEP.length;
  }
  const fromLint = joined.trim() ? await secretlintFindings(joined) : [];
  const perText: Finding[][] = texts.map(() => []);
  for (const f of fromLint) {
    const i = locate(offsets, f.start);
    const base = offsets[i]!;
    const len = texts[i]!.length;
    if (f.end - base > len) continue; // spans a separator: not a real secret
    perText[i]!.push({ start: f.start - base, end: f.end - base, kind: f.kind });
  }
  const counts: RedactionCounts = {};
  const value = texts.map((t, i) => {
    const own = ownFindings(t);
    // For URLs we hide only the password (host and user stay readable), so our narrower finding
    // replaces secretlint's whole-URL one.
    const urlPasswords = own.filter((f) => f.kind === 'password_in_url');
    const lint = perText[i]!.filter(
      (f) => f.kind !== 'password_in_url' || !urlPasswords.some((u) => u.start >= f.start && u.end <= f.end),
    );
    return apply(t, resolve([...lint, ...own]), counts);
  });
  return { value, counts: sortCounts(counts) };
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
