/**
 * What an agent's hook sends on stdin, normalised. Claude Code and Codex send
 * `{session_id, cwd, source | trigger, transcript_path}`; Hermes' shell hooks send
 * `{hook_event_name, session_id, cwd, extra: {is_first_turn, …}}`; plugins of agents without a
 * JSON hook protocol (OpenCode, Gemini CLI, Qwen Code, pi) may send `sessionID`/`directory` or pass
 * `--session-id`/`--cwd` instead; Letta Code sends `{event_type, working_directory, conversation_id}`
 * (its sessions are conversations).
 */
export interface HookInput {
  sessionId: string | null;
  cwd: string;
  source: string | null;
  transcriptPath: string | null;
  trigger: string | null;
  /** Hermes' pre_llm_call: false on every turn after the first (nothing to inject then). */
  firstTurn: boolean;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function parseHookInput(raw: string, overrides: { sessionId?: string; cwd?: string }, fallbackCwd: string): HookInput {
  let body: Record<string, unknown> = {};
  if (raw.trim() !== '') {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    else throw new Error('hook input is not a JSON object');
  }
  const extra = body.extra !== null && typeof body.extra === 'object' ? (body.extra as Record<string, unknown>) : {};
  return {
    sessionId: overrides.sessionId ?? str(body.session_id) ?? str(body.sessionId) ?? str(body.sessionID) ?? str(body.conversation_id),
    cwd: overrides.cwd ?? str(body.cwd) ?? str(body.directory) ?? str(body.working_directory) ?? fallbackCwd,
    source: str(body.source),
    transcriptPath: str(body.transcript_path),
    trigger: str(body.trigger),
    firstTurn: extra.is_first_turn !== false && body.is_first_turn !== false,
  };
}
