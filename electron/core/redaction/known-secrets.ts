/**
 * The redactor's own secret patterns, synchronous and dependency-free: the formats secretlint's
 * preset does not find (AWS key ids outside config files, a bare AWS secret access key in prose,
 * OpenAI/Google keys, JWTs, Slack webhooks, SendGrid and other prefixed service tokens, bearer tokens, passwords inside URLs, `API_KEY=…` lines). redaction/redact.ts
 * combines them with secretlint; search snippets use them alone, because a snippet must be cut
 * from text that is already masked (a window that cuts a secret in half leaves a fragment no
 * pattern recognises any more).
 */

export interface Finding {
  start: number;
  end: number;
  kind: string;
  /** Where the whole match starts when the secret is only part of it (`NAME=` before a value). */
  contextStart?: number;
}

interface OwnPattern {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret (default: whole match). */
  group?: number;
  /** Second look at a match a regex alone cannot judge (e.g. randomness). */
  accept?(secret: string, text: string, start: number): boolean;
}

const B64_CLASS = /[A-Z]/;
const charClass = (c: string): number => (B64_CLASS.test(c) ? 0 : c >= 'a' && c <= 'z' ? 1 : c >= '0' && c <= '9' ? 2 : 3);

/** Changes between upper/lower/digit/symbol along the string: random keys change class often. */
function classChanges(s: string): number {
  let n = 0;
  for (let i = 1; i < s.length; i++) if (charClass(s[i]!) !== charClass(s[i - 1]!)) n++;
  return n;
}

const AWS_CONTEXT = /(?:aws|secret|access[\s_-]?key|key)[^\n]{0,40}$/i;

/**
 * A 40-character AWS secret access key without its variable name ("the secret is wJalr…", or
 * alone). Git hashes (hex, one case) never pass; after a word like "secret" or "aws" mixed case and
 * a digit suffice, alone the string must also look random (class changes measured: random base64
 * keys have 14+ of 39, identifiers and paths about 13).
 */
function looksLikeAwsSecret(secret: string, text: string, start: number): boolean {
  if (!/[A-Z]/.test(secret) || !/[a-z]/.test(secret) || !/[0-9]/.test(secret)) return false;
  if ((secret.match(/\//g) ?? []).length > 4 || secret.startsWith('/') || secret.endsWith('/')) return false;
  if (AWS_CONTEXT.test(text.slice(Math.max(0, start - 60), start))) return true;
  return classChanges(secret) >= 16;
}

const OWN_PATTERNS: OwnPattern[] = [
  { kind: 'private_key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'aws_access_key_id', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { kind: 'aws_secret_access_key', re: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=_-])/g, accept: looksLikeAwsSecret },
  { kind: 'anthropic_api_key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_api_key', re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  // `-` as well as `_`: Claude Code names a session's folder after its cwd with `_` turned into `-`.
  { kind: 'github_token', re: /\b(?:gh[pousr][_-][A-Za-z0-9]{36,}|github[_-]pat[_-][A-Za-z0-9_-]{22,})\b/g },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'stripe_key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'npm_token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  // Formats secretlint finds that snippets must also keep whole (a snippet is cut and marked with
  // these patterns alone): Slack webhooks, SendGrid, and the prefixed tokens of other services.
  { kind: 'incoming_webhook', re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]+/g },
  { kind: 'sendgrid_api_key', re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  {
    kind: 'api_token',
    re: /\b(?:shp(?:at|ss|ca|pa)_|hf_|glpat-|glsa_|glc_|lin_api_|gsk_|ntn_|dckr_pat_|figd_|hv[sbr]\.|dapi)[A-Za-z0-9_+/=-]{20,}/g,
    // Prefixes short enough to start an identifier (`hf_transfer_…`): a token mixes letters with
    // capitals or digits.
    accept: (secret) => /[A-Z0-9]/.test(secret.replace(/^[a-z_.-]+/, '')) && /[a-z]/i.test(secret.slice(4)),
  },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', re: /\bBearer\s+([A-Za-z0-9._~+/-]{12,}=*)/g, group: 1 },
  { kind: 'password_in_url', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/'"]*:([^\s@/'"]+)@/gi, group: 1 },
  {
    kind: 'env_secret',
    // NAME=value / NAME: value where NAME says it is a secret; the value must look like one
    // (not a variable reference or a placeholder in angle brackets).
    re: /(?:^|[\s;'"([])(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|PRIVATE|AUTH)[A-Za-z0-9_]*\s*[=:]\s*['"]?(?![$<{[])([^\s'"`,;]{6,})/gim,
    group: 1,
  },
];

// Compiled once with the `d` flag (match indices), so a capture group's span can be replaced.
const COMPILED = OWN_PATTERNS.map((p) => ({ ...p, re: new RegExp(p.re.source, p.re.flags.includes('d') ? p.re.flags : p.re.flags + 'd') }));
// Cheap pre-check: most strings (paths, tool names) contain nothing any pattern could match.
const MAYBE_SECRET = /[A-Za-z0-9_-]{12,}|PRIVATE KEY|:\/\/[^\s@]+@|[=:]/;

export function knownSecretFindings(text: string): Finding[] {
  const out: Finding[] = [];
  if (!MAYBE_SECRET.test(text)) return out;
  for (const { kind, re, group, accept } of COMPILED) {
    for (const m of text.matchAll(re)) {
      const span = group ? m.indices?.[group] : m.indices?.[0];
      if (!span) continue;
      if (text.startsWith('[REDACTED:', span[0])) continue;
      if (accept && !accept(text.slice(span[0], span[1]), text, span[0])) continue;
      out.push({ start: span[0], end: span[1], kind, ...(group ? { contextStart: m.indices![0]![0] } : {}) });
    }
  }
  return out;
}

/** Non-overlapping findings, earliest first; on overlap the earlier (then longer) one wins. */
export function resolveFindings(findings: Finding[]): Finding[] {
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

export function applyFindings(text: string, findings: Finding[], counts?: Record<string, number>): string {
  let out = '';
  let pos = 0;
  for (const f of findings) {
    out += text.slice(pos, f.start) + `[REDACTED:${f.kind}]`;
    pos = f.end;
    if (counts) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  }
  return out + text.slice(pos);
}

/** `text` with every secret these patterns know masked (synchronous; no secretlint). */
export function maskKnownSecrets(text: string): string {
  const found = knownSecretFindings(text);
  return found.length ? applyFindings(text, resolveFindings(found)) : text;
}
