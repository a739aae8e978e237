/**
 * How context reaches each agent from a start-up hook. Claude Code and Codex read
 * `hookSpecificOutput.additionalContext` from a SessionStart hook's JSON; Hermes' `pre_llm_call`
 * shell hooks answer `{"context": …}`; agents without a JSON hook protocol (OpenCode's plugin,
 * Gemini CLI, Qwen Code, pi) take the plain text.
 */
import type { AgentId } from '../../../shared/model.js';

export function sessionStartOutput(agent: AgentId, text: string): string {
  switch (agent) {
    case 'claude':
    case 'codex':
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`;
    case 'hermes':
      return `${JSON.stringify({ context: text })}\n`;
    default:
      return text.endsWith('\n') ? text : `${text}\n`;
  }
}
