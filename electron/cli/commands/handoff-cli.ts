/**
 * Shared by `baton brief`, `checkpoint` and `restore`: the index brought current (as every CLI
 * command gets it), baton.db, settings, and the handoff service over them; plus session lookup by
 * reference or `--last [--cwd DIR]`.
 */
import path from 'node:path';
import type childProcess from 'node:child_process';
import { BRIEF_TARGETS, type BriefTarget } from '../../../shared/model.js';
import type { HandoffService } from '../../core/handoff/handoff-service.js';

export interface HandoffCli {
  service: HandoffService;
  /** A session id from a reference (id, prefix, title words) or the newest session (in `cwd`). */
  sessionId(ref: string | undefined, opts: { last?: boolean; cwd?: string }): Promise<string>;
  close(): Promise<void>;
}

/** `reveal` (`--no-redact`): the service's answers as they are; otherwise redacted (cli-redaction.ts). */
export async function openHandoffCli(options: { reveal?: boolean } = {}): Promise<HandoffCli> {
  const { ApiError } = await import('../../../shared/contract.js');
  const { redacting } = await import('../cli-redaction.js');
  const { openCliCore } = await import('../cli-core.js');
  const { core, close } = await openCliCore();
  return {
    service: redacting(core.handoff, options.reveal === true),
    async sessionId(ref, { last, cwd }) {
      if (last) return lastSessionId(core.api, cwd);
      if (!ref) throw new ApiError('bad_request', 'Name a session (id, id prefix or title words) or use --last.');
      return core.resolveSession(ref);
    },
    close,
  };
}

/** What `--last` reads: a page of the sessions a list shows, newest first (the API's, or brief-core's). */
export interface SessionLister {
  listSessions(input: { project?: string; limit: number; offset: number }): Promise<{ sessions: { id: string; cwd: string | null }[]; total: number }>;
}

/** `--last [--cwd DIR]`: the newest session (that ran in DIR), from whichever index answers. */
export async function lastSessionId(api: SessionLister, cwd: string | undefined): Promise<string> {
  const dir = cwd ? path.resolve(cwd).replace(/[\\/]+$/, '') : null;
  // Without a directory the newest is the list's first: one row, not a page of 1,000 each listed and
  // redacted (most of a one-shot `brief --last`). With one, the project filter is a substring match:
  // a page, then the exact directory.
  const page = await api.listSessions({ project: dir ?? undefined, limit: dir ? 1000 : 1, offset: 0 });
  const hit = page.sessions.find((s) => !dir || (s.cwd !== null && s.cwd.replace(/[\\/]+$/, '') === dir));
  if (hit) return hit.id;
  const { ApiError } = await import('../../../shared/contract.js');
  throw new ApiError('not_found', dir ? `No session ran in ${dir}.` : 'No sessions indexed yet.');
}

export function targetOption(value: string | undefined): BriefTarget | undefined {
  if (value === undefined) return undefined;
  if (!(BRIEF_TARGETS as readonly string[]).includes(value)) throw new Error(`unknown target "${value}" (expected ${BRIEF_TARGETS.join(', ')})`);
  return value as BriefTarget;
}

export function budgetOption(value: string): number {
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n) || n < 500 || n > 200_000) throw new Error(`--budget must be a number of tokens between 500 and 200000 (got "${value}")`);
  return n;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Copies text with the platform's clipboard tool; says which tool is missing when none works. */
export function copyToClipboard(text: string): void {
  const tools: [string, string[]][] =
    process.platform === 'darwin'
      ? [['pbcopy', []]]
      : process.platform === 'win32'
        ? [['clip', []]]
        : [['wl-copy', []], ['xclip', ['-selection', 'clipboard']], ['xsel', ['--clipboard', '--input']]];
  // The built-in taken when needed: loading node:child_process costs every `baton` run (--help too).
  const { spawnSync } = process.getBuiltinModule('node:child_process') as typeof childProcess;
  for (const [cmd, args] of tools) {
    const r = spawnSync(cmd, args, { input: text, stdio: ['pipe', 'ignore', 'ignore'] });
    if (!r.error && r.status === 0) return;
  }
  throw new Error(`could not copy: none of ${tools.map(([c]) => c).join(', ')} is available`);
}
