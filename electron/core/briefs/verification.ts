/**
 * "Did it pass?" — the last test/build/lint/typecheck commands the agent ran and their outcome,
 * read from tool calls and their results (exit codes in the output, or the result's error flag).
 */
import type { Message } from '../../../shared/model.js';
import { shellCommand } from './tool-input.js';

export type CheckKind = 'test' | 'build' | 'lint' | 'typecheck';
export type CheckOutcome = 'passed' | 'failed' | 'unknown';

export interface VerificationRun {
  kind: CheckKind;
  command: string;
  outcome: CheckOutcome;
  exitCode: number | null;
  seq: number;
  tool: string;
  /** When this latest run passed: the seq of an earlier failed run of the same command, shown as history. */
  failedBefore: number | null;
}

/** One run of a check command; outcome 'unknown' when its result is not among the recent results. */
export interface CheckRun {
  kind: CheckKind;
  command: string;
  seq: number;
  outcome: CheckOutcome;
}

const PATTERNS: [CheckKind, RegExp][] = [
  ['typecheck', /\btsc\b[^|;&]*--noEmit|\b(mypy|pyright|vue-tsc)\b|\b(npm|pnpm|yarn|bun)\s+(run\s+)?(typecheck|type-check|check-types|tsc)\b|\bcargo\s+check\b/],
  ['lint', /\b(eslint|ruff|flake8|pylint|golangci-lint|stylelint|biome\s+(check|lint)|shellcheck|rubocop)\b|\bcargo\s+clippy\b|\bprettier\b[^|;&]*--check|\b(npm|pnpm|yarn|bun)\s+(run\s+)?lint\b|\bgo\s+vet\b/],
  ['test', /\b(npm|pnpm|yarn|bun)\s+(run\s+)?test\b|\b(npm|pnpm|yarn)\s+t\b|\b(vitest|jest|mocha|ava|pytest|tox|nox|rspec|phpunit|ctest)\b|\bplaywright\s+test\b|\bnode\s+--test\b|\b(go|cargo|dotnet|mix|deno|bun)\s+test\b|\bpython3?\s+-m\s+(pytest|unittest)\b|\bmake\s+(test|check)\b|\bgradlew?\s+test\b|\bmvn\s+test\b/],
  ['build', /\b(npm|pnpm|yarn|bun)\s+run\s+build\b|\b(cargo|go|dotnet|zig)\s+build\b|\bvite\s+build\b|\bwebpack\b|\besbuild\b|\btsc\b(?![^|;&]*--noEmit)|\bmvn\s+(package|install|compile)\b|\bgradlew?\s+(build|assemble)\b|\bmake\b(?!\s+(test|check|clean))|\bcmake\s+--build\b/],
];

export function classifyCommand(command: string): CheckKind | null {
  for (const [kind, re] of PATTERNS) if (re.test(command)) return kind;
  return null;
}

/** Exit code stated in a tool result's text, in the forms the agents print it. */
export function exitCodeOf(text: string): number | null {
  const patterns = [
    /Process exited with code (-?\d+)/,
    /Exit code:?\s*(-?\d+)/i,
    /"exit_code"\s*:\s*(-?\d+)/,
    /"exitCode"\s*:\s*(-?\d+)/,
    /"exit"\s*:\s*(-?\d+)/,
    /exited with (?:exit )?(?:code|status) (-?\d+)/i,
    /<exit_code>\s*(-?\d+)\s*<\/exit_code>/,
  ];
  for (const re of patterns) {
    const m = text.match(re);
    if (m) return Number(m[1]);
  }
  return null;
}

/**
 * A failing run told by its output, for stores that keep no exit code with it (OpenCode keeps the
 * exit in tool metadata the index does not carry): TAP/node:test, jest/vitest, pytest, npm.
 */
export function failureInOutput(text: string): boolean {
  return /\bnot ok\b|✖|\bFAIL\b|\b[1-9]\d*\s+(?:failed|failing|failures?)\b|\bfail(?:ed|ures?)?\s*[:=]?\s*[1-9]|\bnpm ERR!|Traceback \(most recent call last\)|\bpanicked at\b/.test(text);
}

/**
 * @param toolCalls every tool call of the session, ascending seq
 * @param results recent tool results (any order), matched to calls by toolCallId
 */
export function collectVerification(toolCalls: Message[], results: Message[], limit = 6): VerificationRun[] {
  const resultById = new Map<string, Message>();
  let oldestResult = Number.POSITIVE_INFINITY;
  for (const r of results) {
    if (r.toolCallId && !resultById.has(r.toolCallId)) resultById.set(r.toolCallId, r);
    if (r.seq < oldestResult) oldestResult = r.seq;
  }
  const runAt = (i: number): (CheckRun & { exitCode: number | null; tool: string }) | null => {
    const call = toolCalls[i]!;
    // Pre-filter on the raw text (the command is in there, JSON-quoted) before parsing it.
    if (!classifyCommand(call.text)) return null;
    const command = shellCommand(call.toolName, call.text);
    const kind = command ? classifyCommand(command) : null;
    if (!command || !kind) return null;
    const result = call.toolCallId ? resultById.get(call.toolCallId) : undefined;
    let outcome: CheckOutcome = 'unknown';
    let exitCode: number | null = null;
    if (result) {
      exitCode = exitCodeOf(result.text);
      if (exitCode !== null) outcome = exitCode === 0 ? 'passed' : 'failed';
      else outcome = result.isError || failureInOutput(result.text) ? 'failed' : 'passed';
    }
    return { kind, command, outcome, exitCode, seq: call.seq, tool: call.toolName ?? 'tool' };
  };
  // Latest run of each distinct command, newest first, then shown oldest first.
  const seen = new Set<string>();
  const runs: VerificationRun[] = [];
  for (let i = toolCalls.length - 1; i >= 0 && runs.length < limit; i--) {
    const run = runAt(i);
    if (!run || seen.has(run.command)) continue;
    seen.add(run.command);
    let failedBefore: number | null = null;
    // An earlier failure of a command that passes now is history; look only as far back as results are known.
    for (let j = i - 1; run.outcome === 'passed' && j >= 0 && toolCalls[j]!.seq >= oldestResult; j--) {
      const earlier = toolCalls[j]!.text.includes(run.command.slice(0, 12)) ? runAt(j) : null;
      if (earlier?.command === run.command && earlier.outcome === 'failed') {
        failedBefore = earlier.seq;
        break;
      }
    }
    runs.push({ ...run, failedBefore });
  }
  return runs.reverse();
}

const FAILURE_WORDS = /\b(?:fail(?:s|ed|ing|ure|ures)?|errors?|broken|crash(?:es|ed)?|not\s+passing|doesn't\s+pass|red)\b/i;

/**
 * For an assistant message that reports a failure: the later passing run that made it history (the
 * latest run of the same kind of check passed after the message), else null.
 */
export function laterPass(text: string, seq: number, runs: readonly CheckRun[]): CheckRun | null {
  // "fail 0", "0 failed", "failures: 0" report a pass.
  if (!FAILURE_WORDS.test(text.replace(/\bfail(?:ed|s|ures?)?\s*[:=]?\s*0\b|\b0\s+(?:fail(?:ed|ures?)?|errors?)\b|\berrors?\s*[:=]?\s*0\b/gi, ''))) return null;
  const kind: CheckKind = /\blint|eslint|ruff|clippy/i.test(text)
    ? 'lint'
    : /\btype ?check|\btsc\b|mypy|type errors?/i.test(text)
      ? 'typecheck'
      : /\bbuild|compil/i.test(text) && !/\btests?\b/i.test(text)
        ? 'build'
        : 'test';
  let latest: CheckRun | null = null;
  for (const r of runs) if (r.kind === kind && (!latest || r.seq > latest.seq)) latest = r;
  return latest && latest.seq > seq && latest.outcome === 'passed' ? latest : null;
}
