/**
 * How tool results look to an agent: data as indented JSON (or the brief's own text), and failures
 * as `isError` results whose message says what to do next — never a stack trace.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../../../shared/contract.js';

export function ok(value: unknown, ...extraText: string[]): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(value, null, 2) }];
  for (const text of extraText) content.push({ type: 'text', text });
  return { content };
}

export function fail(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

interface Candidate {
  id?: unknown;
  title?: unknown;
  firstPrompt?: unknown;
  cwd?: unknown;
  updatedAt?: unknown;
}

function candidateLines(details: unknown): string[] {
  const list = Array.isArray(details) ? details : (details as { candidates?: unknown } | null)?.candidates;
  if (!Array.isArray(list)) return [];
  return (list as Candidate[]).map((c) => {
    const label = typeof c.title === 'string' ? c.title : typeof c.firstPrompt === 'string' ? c.firstPrompt.slice(0, 80) : '(untitled)';
    const where = typeof c.cwd === 'string' ? ` — ${c.cwd}` : '';
    const when = typeof c.updatedAt === 'string' ? ` — ${c.updatedAt}` : '';
    return `- ${String(c.id)} — ${label}${where}${when}`;
  });
}

/** Turns any failure of a core call into an actionable tool error. */
export function toolError(err: unknown, context: { session?: string } = {}): CallToolResult {
  if (err instanceof ApiError) {
    switch (err.code) {
      case 'not_found':
        return fail(
          `${err.message}\nCall list_sessions (optionally with agent or project) to see session ids, or search_all_sessions to find the session by what was said in it.`,
        );
      case 'ambiguous': {
        const lines = candidateLines(err.details);
        return fail(
          `"${context.session ?? 'The reference'}" matches more than one session.` +
            (lines.length ? `\n${lines.join('\n')}` : '') +
            '\nCall again with `session` set to one of these ids.',
        );
      }
      case 'bad_request':
        return fail(`${err.message}\nFix the arguments and call again.`);
      default:
        return fail(`Baton could not complete this call: ${err.message}\nTry again; if it keeps failing, call health_check and tell the user.`);
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return fail(`Baton could not complete this call: ${message}\nTry again; if it keeps failing, call health_check and tell the user.`);
}

/** Runs a tool body, turning thrown errors into tool errors. */
export async function guarded(run: () => Promise<CallToolResult>, context: { session?: string } = {}): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return toolError(err, context);
  }
}

export function pickSession(args: { session?: string; session_id?: string; title?: string }): string | undefined {
  return args.session ?? args.session_id ?? args.title;
}

export const MISSING_SESSION = 'Say which session: pass `session` (an id such as "codex:…", an id prefix, or title words). Call list_sessions to see ids.';
