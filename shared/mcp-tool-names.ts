/** The tools Baton's MCP endpoint serves: one list for the server and for what recognises their calls. */
export const MCP_TOOL_NAMES = [
  'checkpoint_session',
  'list_sessions',
  'restore_session',
  'generate_brief',
  'search_session',
  'search_all_sessions',
  'complete_handoff',
  'health_check',
  'usage_summary',
  'continue_session',
] as const;
