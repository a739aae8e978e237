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
 * @param toolCalls every tool call of the session, ascending seq
 * @param results recent tool results (any order), matched to calls by toolCallId
 */
export function collectVerification(toolCalls: Message[], results: Message[], limit = 6): VerificationRun[] {
  const resultById = new Map<string, Message>();
  for (const r of results) if (r.toolCallId && !resultById.has(r.toolCallId)) resultById.set(r.toolCallId, r);
  // Latest run of each distinct command, newest first, then shown oldest first.
  const seen = new Set<string>();
  const runs: VerificationRun[] = [];
  for (let i = toolCalls.length - 1; i >= 0 && runs.length < limit; i--) {
    const call = toolCalls[i]!;
    // Pre-filter on the raw text (the command is in there, JSON-quoted) before parsing it.
    if (!classifyCommand(call.text)) continue;
    const command = shellCommand(call.toolName, call.text);
    if (!command) continue;
    const kind = classifyCommand(command);
    if (!kind || seen.has(command)) continue;
    seen.add(command);
    const result = call.toolCallId ? resultById.get(call.toolCallId) : undefined;
    let outcome: CheckOutcome = 'unknown';
    let exitCode: number | null = null;
    if (result) {
      exitCode = exitCodeOf(result.text);
      if (exitCode !== null) outcome = exitCode === 0 ? 'passed' : 'failed';
      else outcome = result.isError ? 'failed' : 'passed';
    }
    runs.push({ kind, command, outcome, exitCode, seq: call.seq, tool: call.toolName ?? 'tool' });
  }
  return runs.reverse();
}
