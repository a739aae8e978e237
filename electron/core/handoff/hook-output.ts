/**
 * How context reaches each agent from a start-up hook. Claude Code, Codex, Gemini CLI and Qwen
 * Code (and Factory Droid) read `hookSpecificOutput.additionalContext` from a SessionStart hook's JSON (Gemini CLI
 * reads stdout as JSON only); Hermes' `pre_llm_call` shell hooks answer `{"context": …}`; agents
 * whose integration is a plugin or extension (OpenCode, pi) take the plain text. Copilot CLI's
 * camelCase `sessionStart` hook answers a top-level `{"additionalContext": …}` (its Claude-style
 * `hookSpecificOutput` is not read from a camelCase hook: checked with the real 1.0.102).
 */
import type { AgentId } from '../../../shared/model.js';

export function sessionStartOutput(agent: AgentId, text: string): string {
  switch (agent) {
    case 'claude':
    case 'codex':
    case 'gemini':
    case 'qwen':
    case 'droid':
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`;
    case 'hermes':
      return `${JSON.stringify({ context: text })}\n`;
    case 'copilot':
      return `${JSON.stringify({ additionalContext: text })}\n`;
    default:
      return text.endsWith('\n') ? text : `${text}\n`;
  }
}
