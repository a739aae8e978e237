/**
 * Baton's own output inside an agent's transcript: calls to Baton's MCP tools, their results, and
 * handoff briefs quoted back. They stay in the transcript but feed no search (a search an agent ran
 * through Baton would otherwise come back first in the next search for the same words, above the
 * session where they were really said, and a fetched brief would be indexed again inside the
 * fetching session), and a new brief names an earlier one instead of quoting it (briefs never nest).
 */

import { MCP_TOOL_NAMES } from '../../../shared/mcp-tool-names.js';

/**
 * Server `baton` + tool, as the agents join them: `mcp__baton__x` (Claude Code; Codex's namespace
 * `mcp__baton` + `x`), `baton_x` (OpenCode), `mcp_baton_x` (Hermes, Gemini CLI), `baton__x`,
 * `baton.x`, `baton/x`, `baton:x` (display forms).
 */
const BATON_TOOL = new RegExp(`^(?:mcp_{1,2})?baton(?:__|_|\\.|/|:)(?:${MCP_TOOL_NAMES.join('|')})$`, 'i');

export function isBatonTool(toolName: string | null | undefined): boolean {
  return typeof toolName === 'string' && toolName.length < 64 && BATON_TOOL.test(toolName);
}

/** The heading every Markdown brief starts with (briefs/render-markdown.ts). */
const BRIEF_HEADING = /^#{1,2} Handoff brief:/m;

export const NESTED_BRIEF_MARK = '[an earlier Baton handoff brief, not repeated here]';

/** `text` with an embedded brief (its heading to the end of the message) replaced by a short mark. */
export function withoutNestedBrief(text: string): string {
  if (!text.includes('Handoff brief:')) return text; // the common case, without a regex scan
  const m = BRIEF_HEADING.exec(text);
  if (!m) return text;
  const before = text.slice(0, m.index).trimEnd();
  return before ? `${before}\n${NESTED_BRIEF_MARK}` : NESTED_BRIEF_MARK;
}

/**
 * A session's goal when its first prompt carries an earlier brief (pasted by the user to hand work
 * over): the earlier brief's own "Original goal", not the whole brief again. Text without a brief
 * comes back unchanged.
 */
export function goalWithoutNestedBrief(prompt: string): string {
  const stripped = withoutNestedBrief(prompt);
  if (stripped === prompt) return prompt;
  const brief = prompt.slice(BRIEF_HEADING.exec(prompt)!.index);
  const section = /(?:^|\n)## Original goal\n+([\s\S]*?)(?=\n## |$)/.exec(brief)?.[1];
  if (!section) return stripped;
  const goal = section
    .trim()
    .split('\n')
    .map((l) => l.replace(/^> ?/, ''))
    .join('\n');
  const before = stripped.slice(0, -NESTED_BRIEF_MARK.length).trimEnd();
  return before ? `${before}\n${goal}` : goal;
}
