/**
 * "Continue in <agent>": the source session planned (plan-continuation.ts), written by the target's
 * native writer under a staging copy of its store, read back by Baton's own reader of that agent,
 * then put in place and recorded in baton.db (linked to the source, with what was written so
 * `undoContinuation` removes exactly that). Any failure before commit writes nothing; bad input
 * (unknown ref, missing cwd, target not installed, store missing or locked) is a clear ApiError.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_LABELS, type AgentId, type Session } from '../../../shared/model.js';
import type { ContinueResult, ContinueUndoResult } from '../../../shared/api-types.js';
import { ApiError } from '../../../shared/contract.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import type { HandoffService } from '../handoff/handoff-service.js';
import type { UserData } from '../userdata/user-data.js';
import type { Environment } from '../paths.js';
import { changeDirectory, quoteFor } from '../terminal/shell-quote.js';
import { shellKindFor } from '../terminal/terminal-plan.js';
import { hostProbe, launchAgentIn } from '../terminal/open-in-agent.js';
import type { LaunchPlan } from '../terminal/terminal-plan.js';
import type { LaunchOutcome } from '../terminal/launcher.js';
import type { NativeWriter, UndoStep, WriterEnv } from './native-writer.js';
import { nativeWriterFor } from './native-writers.js';
import { planContinuation } from './plan-continuation.js';
import { readBack } from './read-back.js';
import { runUndo } from './undo-steps.js';
import { compareVersions } from './writer-support.js';

/** The part of the composed core continuing uses (declared here: continue/ imports no composition root). */
export interface ContinueCore {
  readonly environment: Environment;
  readonly sources: TranscriptReader;
  readonly userData: UserData;
  readonly handoff: Pick<HandoffService, 'generateBrief'>;
  resolveSession(ref: string): string;
  storeRoots(agent: AgentId): string[];
}

export interface ContinueRequest {
  session: string;
  target: AgentId;
  /** Folder the continued session belongs to; default the source session's. */
  cwd?: string;
  open?: boolean;
}

export interface ContinueOptions {
  now?: Date;
  /** Tests replace writers (and the terminal launcher); default the registry's. */
  writerFor?: (agent: AgentId) => NativeWriter | null;
  launch?: (plan: LaunchPlan) => Promise<LaunchOutcome>;
}

/** Whose reader reads a writer's staged files: Hermes is fed a Claude-format transcript. */
const READER_OF: Partial<Record<AgentId, AgentId>> = { hermes: 'claude' };

function resumeCommand(environment: Environment, cwd: string, argv: string[]): string {
  const shell = shellKindFor(environment.platform);
  const cmd = argv.map((a) => quoteFor(shell, a)).join(' ');
  return `${changeDirectory(shell, cwd)}${shell === 'posix' ? ' &&' : ';'} ${cmd}`;
}

function existingFilesOf(undoJson: string): boolean {
  const steps = JSON.parse(undoJson) as UndoStep[];
  return steps.filter((s) => s.kind === 'file').every((s) => s.kind === 'file' && fs.existsSync(s.path));
}

function sourceSession(core: ContinueCore, ref: string): Session {
  const id = core.resolveSession(ref);
  const session = core.sources.getSession(id);
  if (!session) throw new ApiError('not_found', `No session ${JSON.stringify(ref)} in the index.`);
  return session;
}

function folder(requested: string | undefined, session: Session): string {
  const dir = requested ? path.resolve(requested) : session.cwd;
  if (!dir) throw new ApiError('bad_request', `The session has no recorded folder; pass --cwd DIR.`);
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new ApiError('bad_request', `The folder ${dir} does not exist; the continued session must belong to an existing folder (pass --cwd DIR).`);
  return dir;
}

export async function continueSession(core: ContinueCore, request: ContinueRequest, options: ContinueOptions = {}): Promise<ContinueResult> {
  const writer = (options.writerFor ?? nativeWriterFor)(request.target);
  const label = AGENT_LABELS[request.target];
  if (!writer) throw new ApiError('bad_request', `Continuing natively in ${label} is not available yet.`);
  const session = sourceSession(core, request.session);
  const cwd = folder(request.cwd, session);
  const env: WriterEnv = { environment: core.environment, storeRoots: core.storeRoots(request.target) };
  const check = await writer.check(env);
  if (!check.ok) throw new ApiError('bad_request', check.message, { reason: check.reason });
  const warnings: string[] = [];
  if (check.version && compareVersions(check.version, writer.testedVersion) > 0) {
    warnings.push(`${label} ${check.version} is newer than ${writer.testedVersion}, the version Baton's ${label} writer was tested with.`);
  }
  const now = options.now ?? new Date();
  const window = writer.contextWindow(null);
  const { plan, tokens } = await planContinuation({
    reader: core.sources,
    session,
    target: request.target,
    contextWindow: window,
    cwd,
    now,
    brief: async (budget) => (await core.handoff.generateBrief({ session: session.id, target: request.target, budget, format: 'md', redact: true })).text,
  });
  const base = { agent: request.target, source: session.id, cwd, title: plan.title, tokens, contextWindow: window, turns: plan.turns.length, notes: plan.notes };

  const open = async (resume: string[]) => {
    if (!request.open) return null;
    const { env: e, platform, home } = core.environment;
    return launchAgentIn({ probe: hostProbe(platform, e, home), launch: options.launch }, { agent: request.target, cwd, briefFile: null, command: resumeCommand(core.environment, cwd, resume) });
  };

  const previous = core.userData.continuations.byKey(plan.key);
  if (previous && existingFilesOf(previous.undoJson)) {
    const nativeId = previous.targetSession.slice(previous.targetSession.indexOf(':') + 1);
    return { ...base, session: nativeId, sessionId: previous.targetSession, resume: previous.resume, resumeCommand: resumeCommand(core.environment, previous.cwd, previous.resume), reused: true, warnings, opened: await open(previous.resume) };
  }

  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-continue-'));
  try {
    const staged = await writer.stage(plan, env, staging);
    const back = await readBack(READER_OF[request.target] ?? request.target, staged, plan, staged.nativeId);
    if (!back.ok) throw new ApiError('internal', `Nothing was written: ${back.reason}.`);
    const committed = await writer.commit(staged, plan, env);
    const sessionId = `${request.target}:${committed.nativeId}`;
    core.userData.continuations.save({
      targetSession: sessionId,
      sourceSession: session.id,
      targetAgent: request.target,
      planKey: plan.key,
      cwd,
      resume: committed.resume,
      undoJson: JSON.stringify(committed.undo),
      createdAt: now.toISOString(),
    });
    return {
      ...base,
      session: committed.nativeId,
      sessionId,
      resume: committed.resume,
      resumeCommand: resumeCommand(core.environment, cwd, committed.resume),
      reused: false,
      warnings: [...warnings, ...committed.warnings],
      opened: await open(committed.resume),
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Removes what a continuation wrote: its files and the target's index rows, then Baton's record. */
export function undoContinuation(core: Pick<ContinueCore, 'userData'>, ref: string): ContinueUndoResult {
  const all = core.userData.continuations.list();
  const wanted = ref.trim();
  const hits = all.filter((r) => r.targetSession === wanted || r.targetSession.split(':').slice(1).join(':') === wanted || r.targetSession.split(':').slice(1).join(':').startsWith(wanted));
  if (hits.length === 0) throw new ApiError('not_found', `No session Baton continued is named ${JSON.stringify(ref)} (give the id \`baton continue\` printed).`);
  if (hits.length > 1) throw new ApiError('ambiguous', `${JSON.stringify(ref)} names ${hits.length} continued sessions: ${hits.map((h) => h.targetSession).join(', ')}.`);
  const record = hits[0]!;
  const steps = JSON.parse(record.undoJson) as UndoStep[];
  const { failed } = runUndo(steps);
  if (failed.length > 0) throw new ApiError('internal', `Could not undo everything: ${failed.map((f) => f.error).join('; ')}`);
  core.userData.continuations.remove(record.targetSession);
  return {
    sessionId: record.targetSession,
    removed: steps.map((s) => (s.kind === 'file' || s.kind === 'empty-dir' ? s.path : s.kind === 'sqlite-row' ? `${s.table} row ${s.key} in ${s.db}` : s.kind === 'jsonl-line' ? `line in ${s.path}` : s.kind === 'cn-index-entry' ? `entry ${s.sessionId} in ${s.path}` : s.argv.join(' '))),
  };
}
