/**
 * The contract every "continue natively" target implements: write a planned conversation into one
 * agent's own session store, so that agent resumes it as if it had happened there. A writer never
 * edits an existing session: it stages new files under a staging copy of the store's layout, Baton
 * reads that staging copy back with its own reader of the agent, and only then `commit` moves the
 * files into the real store (rename) and adds the agent's own index rows. Everything `commit` did is
 * returned as undo steps, so `baton continue --undo` removes exactly that.
 */
import type { AgentId } from '../../../shared/model.js';
import type { Environment } from '../paths.js';

/** One verbatim turn carried into the target: text only (tool calls flattened to labelled text). */
export interface PlannedTurn {
  role: 'user' | 'assistant';
  text: string;
  /** ISO-8601 time of the source message, when known. */
  timestamp: string | null;
}

/** What a writer writes: the source's identity, the brief standing for older history, newest turns. */
export interface ContinuationPlan {
  source: { sessionId: string; agent: AgentId; nativeId: string; title: string | null; cwd: string | null };
  target: AgentId;
  /**
   * Stable for one source state and target (source id + last message seq + target): writers derive
   * their native ids from it, so the same source state continued twice gives the same session.
   */
  key: string;
  /** "Continued from <Agent>: <title>". */
  title: string;
  /**
   * The handoff brief (redacted) that stands for everything before `turns`; writers put it in the
   * first user turn, which says the session was continued from the source.
   */
  summary: string;
  /**
   * The newest turns, verbatim (redacted), alternating user/assistant, starting with a user turn and
   * ending with whatever the source ended with. May be empty (then the summary is the whole history).
   */
  turns: PlannedTurn[];
  /** Existing directory the target session belongs to (it resumes from there). */
  cwd: string;
  /** ISO-8601; used for the target's timestamps and file names (deterministic from the plan). */
  createdAt: string;
  /** What was left out or changed on the way (e.g. "tool calls flattened to text"), for the result. */
  notes: string[];
}

/** Where a target's store lives and how the writer may look at the machine (paths resolved by Baton). */
export interface WriterEnv {
  environment: Environment;
  /** The target's store roots as Baton reads them (settings override or defaults), most specific first. */
  storeRoots: string[];
}

/** Outcome of `check`: ready (with the installed version, when found) or a clear reason. */
export type WriterCheck =
  | { ok: true; version: string | null }
  | { ok: false; reason: 'not_installed' | 'store_missing' | 'locked' | 'unsupported'; message: string };

/** One file the writer staged: `stagedPath` (under the staging root) goes to `finalPath` (in the store). */
export interface StagedFile {
  stagedPath: string;
  finalPath: string;
}

export interface StagedSession {
  /** The target's native session id (deterministic from `plan.key`). */
  nativeId: string;
  files: StagedFile[];
  /**
   * Store roots inside the staging root, laid out like the real store, for Baton's reader of the
   * target to read back (e.g. `<staging>/claude` standing for `~/.claude`).
   */
  readBackRoots: string[];
  /** Anything commit needs besides the files (index rows to add), writer-specific. */
  extra?: Record<string, unknown>;
}

/** A reversible thing commit did; undo runs them newest first. */
export type UndoStep =
  | { kind: 'file'; path: string }
  /** A folder the commit created for its files: removed on undo only if nothing else is in it by then. */
  | { kind: 'empty-dir'; path: string }
  | { kind: 'sqlite-row'; db: string; table: string; keyColumn: string; key: string }
  | { kind: 'jsonl-line'; path: string; line: string }
  | { kind: 'command'; argv: string[]; cwd: string }
  /** Continue cn's sessions.json: `before` back when it still reads `after`, else only this entry out. */
  | { kind: 'cn-index-entry'; path: string; sessionId: string; before: string | null; after: string };

export interface CommitResult {
  nativeId: string;
  /** argv that resumes the session, run in `plan.cwd` (e.g. ['claude', '--resume', id]). */
  resume: string[];
  undo: UndoStep[];
  /** Non-fatal things the user should know (e.g. an index row not added because the db is absent). */
  warnings: string[];
}

export interface NativeWriter {
  readonly agent: AgentId;
  /** The target CLI version this writer was verified against with the real CLI. */
  readonly testedVersion: string;
  /** The context window (tokens) of the model the target will resume with; `model` null = its default. */
  contextWindow(model: string | null): number;
  /** Is the target installed, its store present and not locked by a running agent? Writes nothing. */
  check(env: WriterEnv): Promise<WriterCheck>;
  /** Write the session's files under `stagingRoot` (nothing in the real store). */
  stage(plan: ContinuationPlan, env: WriterEnv, stagingRoot: string): Promise<StagedSession>;
  /** Put the staged files in place (rename) and add the target's own index rows. */
  commit(staged: StagedSession, plan: ContinuationPlan, env: WriterEnv): Promise<CommitResult>;
}
