/**
 * Hermes' limit hits, from its error log. Hermes keeps nothing of a failed API call in state.db: on a
 * 429 that outlasts its retries it logs one ERROR line, then persists only the turn's messages (the
 * user's prompt) and returns the error to the UI (agent/conversation_loop.py; the gateway skips the
 * error text on purpose). Its log lines carry the session id (hermes_logging.py `set_session_context`),
 * so `<HERMES_HOME>/logs/errors.log` (WARNING+, rotated to errors.log.1/.2) names the session that
 * stopped. The line is written just before the prompt row, so reading the log when that session's
 * rows change finds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UsageEvent } from '../../../../shared/model.js';
import { classifyApiError, limitRecord, reachedLimit, resetFromText } from '../limit-errors.js';

export interface HermesLoggedFailure {
  /** ISO time of the log line (Hermes writes local wall-clock time, as `logging` does by default). */
  at: string | null;
  status: number | null;
  /** Error types/codes the body names, other than the envelope's `error`. */
  type: string | null;
  text: string;
}

// `%(asctime)s %(levelname)s%(session_tag)s %(name)s: %(message)s`, asctime `2026-11-27 05:31:12,345`.
const LINE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}),(\d{3}) ERROR \[([^\]\s]+)\] [\w.]+: (.*)$/;
// The two terminal failures: retries exhausted (summary `HTTP 429: <provider message>`), or a
// non-retryable error (`str(api_error)`, the SDK's `Error code: 402 - {...}`).
const EXHAUSTED = /^(?:\[[^\]]*\]\s*)?API call failed after \d+ retries\. (.*?)(?: \| provider=.*)?$/;
const NON_RETRYABLE = /^(?:\[[^\]]*\]\s*)?Non-retryable client error: (.*)$/;
const STATUS = /^(?:HTTP |Error code: )(\d{3})\b/;
// The provider's error type/code inside the SDK's Python-repr body (`'type': 'rate_limit_error'`).
const FIELD = /'(type|code)': '([\w.-]+)'/g;

/** The error logs of the Hermes home a store lives in (newest last), that exist. */
export function hermesErrorLogs(storeFile: string): string[] {
  const dir = path.join(path.dirname(storeFile), 'logs');
  return ['errors.log.2', 'errors.log.1', 'errors.log'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f));
}

/** Terminal API failures per Hermes session id, in log order. Unreadable logs read as none. */
export function readHermesFailures(logs: readonly string[]): Map<string, HermesLoggedFailure[]> {
  const out = new Map<string, HermesLoggedFailure[]>();
  for (const file of logs) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes(' ERROR [')) continue;
      const m = LINE.exec(line.trimEnd());
      if (!m) continue;
      const body = EXHAUSTED.exec(m[9]!)?.[1] ?? NON_RETRYABLE.exec(m[9]!)?.[1];
      if (body === undefined) continue;
      const local = new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
      const status = STATUS.exec(body);
      const list = out.get(m[8]!) ?? [];
      const types = [...body.matchAll(FIELD)].map((f) => f[2]!).filter((t) => t !== 'error');
      list.push({ at: Number.isNaN(local.getTime()) ? null : local.toISOString(), status: status ? Number(status[1]) : null, type: types.join(' ') || null, text: body });
      out.set(m[8]!, list);
    }
  }
  return out;
}

/** The limit hits among a session's logged failures, as token-less usage records. */
export function hermesLimitEvents(sessionId: string, failures: readonly HermesLoggedFailure[]): UsageEvent[] {
  const out: UsageEvent[] = [];
  for (const f of failures) {
    const verdict = classifyApiError({ status: f.status, type: f.type, text: f.text });
    if (verdict.class !== 'limit') continue;
    out.push({ sessionId, ...limitRecord(`limit:log:${f.at ?? f.text}`, f.at, reachedLimit(verdict.kind, f.text, resetFromText(f.text))) });
  }
  return out;
}
