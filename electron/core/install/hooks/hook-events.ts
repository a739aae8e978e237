/** The hook events `baton hook <event>` answers (apart from hook-main so the CLI can list them cheaply). */
export const HOOK_EVENTS = ['session-start', 'pre-compact', 'stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
