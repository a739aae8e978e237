/**
 * The handoff service the composition root wires up: briefs, checkpoints, restore, pins and the
 * seed-format exports. Sessions are read through the index (TranscriptReader) only; user data
 * lives in baton.db (UserData). Session references arrive already resolved to ids (the index's
 * resolveSessionRef does that); pass `resolveSession` to accept raw references here too.
 */
import type { z } from 'zod';
import { ApiError, BriefRequestSchema, CheckpointRequestSchema } from '../../../shared/contract.js';
import type { BriefFormat, BriefResult, Checkpoint, GitDrift, HandoffStatus, RestoreResult } from '../../../shared/api-types.js';
import { AGENT_LABELS, type AgentId, type Session } from '../../../shared/model.js';
import type { BriefTarget, Settings } from '../../../shared/settings.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import { describeDrift } from '../git/git-drift.js';
import { localSessionGit, type SessionGit } from '../remote/remote-machines.js';
import type { UserData } from '../userdata/user-data.js';
import { defaultDelimitDir, toDelimitRecord, writeDelimitRecord, type DelimitRecord } from '../briefs/formats/delimit.js';
import { renderGovZero, type GovZeroOptions } from '../briefs/formats/govzero.js';
import { toEnvelope } from '../briefs/formats/envelope.js';
import { writeContextRelay, type RelayWriteResult } from '../briefs/formats/context-relay.js';
import { collectBriefData, type BriefData } from '../briefs/brief-data.js';
import { findInstructionFiles } from '../briefs/instruction-files.js';
import { redactDeep, type RedactionCounts } from '../redaction/redact.js';
import { renderMarkdown } from '../briefs/render-markdown.js';
import { STALENESS_LABELS, stalenessBand } from '../briefs/staleness.js';
import { openCommand } from '../briefs/targets.js';
import { machineLabel, sessionHost } from '../../../shared/machines.js';
import { MAX_CHARS_PER_TOKEN } from '../briefs/tokens.js';
import { boundBriefData, boundDrift } from '../briefs/bound-brief-data.js';
import { boundCheckpoint } from '../briefs/bounded-lists.js';
import { fitBrief, type Rendered } from '../briefs/fit-brief.js';
import { realDir, worktreeRoot } from './project-match.js';

export type BriefRequest = z.input<typeof BriefRequestSchema>;
export type CheckpointRequest = z.input<typeof CheckpointRequestSchema>;

export interface RestoreRequest {
  sessionId: string;
  confirmed?: boolean;
  target?: BriefTarget;
  budget?: number;
  /** false: the brief keeps its secrets (the CLI's `--no-redact`; never reachable from MCP). */
  redact?: boolean;
}

export interface HandoffRequest {
  sessionId: string;
  target: AgentId;
  /** The folder the target agent will work in; default the session's cwd. */
  projectDir?: string;
  summary?: string;
  decisions?: string[];
  nextSteps?: string[];
}

export interface HandoffServiceDeps {
  reader: TranscriptReader;
  userData: UserData;
  settings: () => Settings;
  now?: () => Date;
  /** Turns a session reference into an id; default: the reference must be an exact id. */
  resolveSession?: (ref: string) => string;
  /** Where GovZero/Delimit defaults come from (tests point home elsewhere). */
  home?: string;
  govZero?: GovZeroOptions;
  /** Where a session's git state is read (default: this machine; a host's sessions on that host). */
  git?: SessionGit;
}

export interface HandoffService {
  generateBrief(request: BriefRequest): Promise<BriefResult>;
  createCheckpoint(request: Omit<CheckpointRequest, 'session'> & { session?: string }, sessionId: string): Promise<Checkpoint>;
  listCheckpoints(sessionId: string): Checkpoint[];
  restore(request: RestoreRequest): Promise<RestoreResult>;
  /**
   * A pending handoff to `target`: the brief rendered for that agent now, saved with a checkpoint
   * that carries the folder, its git work tree and the expiry (the `handoffExpiryHours` setting).
   */
  createHandoff(request: HandoffRequest): Promise<{ checkpoint: Checkpoint; brief: string }>;
  /** Marks a handoff completed: the named checkpoint, or the session's latest one. */
  completeHandoff(ref: { checkpointId?: string; sessionId?: string }): Checkpoint;
  /** Store health: pending handoffs, those pending over five minutes, the last completed one. */
  handoffStatus(): HandoffStatus;
  pinDecision(input: { sessionId: string; seq: number; pinned: boolean }): { pinned: boolean };
  /** Delimit record, written to `~/.delimit/sessions/` (or `dir`) only when `write` is true. */
  exportDelimit(sessionId: string, options?: { write?: boolean; dir?: string; redact?: boolean }): Promise<{ record: DelimitRecord; file: string | null }>;
  /** Context Relay files into `dir` (state.json, decisions.md appended, todos.json merged). */
  exportContextRelay(sessionId: string, dir: string, options?: { redact?: boolean }): Promise<RelayWriteResult>;
}

/**
 * Characters of brief an agent's start-up hook can hand over whole. Letta Code 0.32 keeps hook output
 * over 10,000 characters only as its first 2,000 plus a file path (letta.js); the injected text adds
 * a ~1,000-character header to the brief.
 */
export const HOOK_CONTEXT_CHARS: Partial<Record<AgentId, number>> = { letta: 8_800 };

/** A handoff still pending after this long never landed (the MCP envelope guide's alert threshold). */
const STALE_PENDING_MS = 5 * 60_000;

export function createHandoffService(deps: HandoffServiceDeps): HandoffService {
  const now = deps.now ?? (() => new Date());
  const git = deps.git ?? localSessionGit;
  /** The machine in settings a host session lives on (null: this machine's, or a host no longer configured). */
  const machineOf = (session: Session) => {
    const label = sessionHost(session.id);
    return label ? (deps.settings().machines.find((m) => machineLabel(m) === label) ?? null) : null;
  };
  const resolve = (ref: string): Session => {
    const id = deps.resolveSession ? deps.resolveSession(ref) : ref;
    const session = deps.reader.getSession(id);
    if (!session) throw new ApiError('not_found', `No session ${JSON.stringify(ref)} in the index.`);
    return session;
  };

  async function driftFor(session: Session, checkpoint: Checkpoint | null, at: Date): Promise<GitDrift | null> {
    if (!checkpoint) return null;
    return git.drift(session, checkpoint.git, deps.userData.fingerprintOf(checkpoint.id), at);
  }

  async function gather(session: Session, at: Date, drift?: GitDrift | null): Promise<BriefData> {
    const checkpoints = deps.userData.listCheckpoints(session.id);
    const pins = deps.userData.listPins(session.id);
    const d = drift === undefined ? await driftFor(session, checkpoints[0] ?? null, at) : drift;
    // Instruction files are looked up on this machine only: a host session's project is not here.
    const instructionFiles = sessionHost(session.id) ? [] : findInstructionFiles(session.cwd);
    return collectBriefData({ reader: deps.reader, session, checkpoints, pins, drift: d, now: at, instructionFiles });
  }

  async function maybeRedact(data: BriefData, redact: boolean): Promise<{ data: BriefData; counts: RedactionCounts }> {
    if (!redact) return { data, counts: {} };
    // Tool calls are only used for names and counts when folding; everything shown is redacted.
    const { toolCalls, ...shown } = data;
    const { value, counts } = await redactDeep(shown);
    return { data: { ...value, toolCalls }, counts };
  }

  async function brief(
    session: Session,
    opts: { target: BriefTarget; format: BriefFormat; budget: number; redact: boolean },
    at: Date,
    drift?: GitDrift | null,
    gathered?: BriefData,
  ): Promise<BriefResult> {
    const raw = gathered ?? (await gather(session, at, drift));
    // Cut by characters before anything costly: redaction and token counting then see O(budget)
    // text however large the checkpoints are (clipped at word boundaries, so no secret is halved).
    const { data, counts } = await maybeRedact(boundBriefData(raw, opts.budget * MAX_CHARS_PER_TOKEN), opts.redact);
    const render = renderer(session, opts, at);
    const overflow = opts.format === 'md' ? ({ kind: 'cut' } as const) : ({ kind: 'refuse', format: opts.format } as const);
    const { text, tokens } = fitBrief(data, opts.budget, render, overflow);
    return {
      sessionId: session.id,
      target: opts.target,
      format: opts.format,
      text,
      tokens,
      budget: opts.budget,
      redactions: countsInOutput(counts, text),
      redacted: opts.redact,
      openCommand: openCommand(opts.target, session.cwd, machineOf(session)),
    };
  }

  /** How each format turns (already fitted) brief data into text. */
  function renderer(session: Session, opts: { target: BriefTarget; format: BriefFormat; budget: number }, at: Date): (data: BriefData) => Rendered {
    switch (opts.format) {
      case 'md': {
        const lineTokens = new Map<string, number>();
        return (data) => renderMarkdown(data, { target: opts.target, budget: opts.budget, lineTokens });
      }
      case 'delimit':
        return (data) => ({ text: JSON.stringify(toDelimitRecord(data, at), null, 2) + '\n' });
      case 'govzero':
        return (data) => ({ text: renderGovZero(data, session.cwd, deps.govZero) });
      case 'envelope':
        return (data) => ({ text: JSON.stringify(toEnvelope(data, opts.target, at), null, 2) + '\n' });
    }
  }

  function briefOptions(req: { target?: BriefTarget; budget?: number; format?: BriefFormat; redact?: boolean }) {
    const settings = deps.settings();
    return {
      target: req.target ?? settings.defaultTarget,
      format: req.format ?? 'md',
      budget: req.budget ?? settings.briefBudget,
      // Off only when this brief asks for it, or the user turned redaction off in settings.
      redact: req.redact !== false && settings.redact,
    };
  }

  return {
    async generateBrief(request) {
      const req = BriefRequestSchema.parse(request);
      return brief(resolve(req.session), briefOptions(req), now());
    },

    async createCheckpoint(request, sessionId) {
      const session = resolve(sessionId);
      const req = CheckpointRequestSchema.parse({ ...request, session: session.id });
      if (req.idempotencyToken) {
        const existing = deps.userData.findByToken(req.idempotencyToken);
        if (existing && existing.sessionId === session.id) return existing;
      }
      const at = now();
      const { snapshot, fingerprint } = await git.snapshot(session, at);
      const previous = deps.userData.latestCheckpoint(session.id);
      const { checkpoint } = deps.userData.saveCheckpoint({
        sessionId: session.id,
        idempotencyToken: req.idempotencyToken ?? null,
        summary: req.summary,
        decisions: req.decisions,
        nextSteps: req.nextSteps,
        blockers: req.blockers,
        itemsCompleted: req.itemsCompleted,
        itemsAdded: req.itemsAdded,
        filesChanged: req.filesChanged,
        continuesFrom: req.continuesFrom ?? previous?.id ?? null,
        git: snapshot,
        gitFingerprint: fingerprint,
        createdAt: at.toISOString(),
      });
      return checkpoint;
    },

    listCheckpoints(sessionId) {
      return deps.userData.listCheckpoints(resolve(sessionId).id);
    },

    async createHandoff(request) {
      const session = resolve(request.sessionId);
      const folder = request.projectDir ?? session.cwd;
      if (!folder) {
        throw new ApiError('bad_request', `Session ${session.id} has no working directory; name the folder the next agent works in (--cwd).`);
      }
      const projectDir = realDir(folder);
      const at = now();
      const raw = await gather(session, at);
      const opts = { ...briefOptions({}), target: request.target, format: 'md' as const };
      const rendered = await brief(session, opts, at, undefined, raw);
      // The stored brief goes into an agent's context (start-up hook), i.e. to its model provider:
      // always masked, whatever the person chose to see for themselves.
      let injected = opts.redact ? rendered : await brief(session, { ...opts, redact: true }, at, undefined, raw);
      // An agent that cuts a long hook output (Letta Code) gets a brief that fits whole, header included.
      const room = HOOK_CONTEXT_CHARS[request.target];
      for (let budget = opts.budget; room !== undefined && injected.text.length > room && budget > 200; ) {
        budget = Math.floor((budget * room * 0.95) / injected.text.length);
        injected = await brief(session, { ...opts, budget, redact: true }, at, undefined, raw);
      }
      const previous = deps.userData.latestCheckpoint(session.id);
      // The handoff carries the state forward, so briefs of this session read on unchanged.
      const summary = request.summary?.trim() || raw.state.summary?.slice(0, 20_000) || `Handed off to ${AGENT_LABELS[request.target]}.`;
      const { snapshot, fingerprint } = await git.snapshot({ ...session, cwd: projectDir }, at);
      const expiresAt = new Date(at.getTime() + deps.settings().handoffExpiryHours * 3_600_000).toISOString();
      const { checkpoint } = deps.userData.saveCheckpoint({
        sessionId: session.id,
        idempotencyToken: null,
        summary,
        decisions: request.decisions ?? [],
        nextSteps: request.nextSteps ?? raw.state.nextSteps.map((n) => (typeof n === 'string' ? n : n.text)),
        blockers: previous?.blockers ?? [],
        itemsCompleted: [],
        itemsAdded: previous?.itemsAdded ?? [],
        filesChanged: previous?.filesChanged ?? [],
        continuesFrom: previous?.id ?? null,
        git: snapshot,
        gitFingerprint: fingerprint,
        createdAt: at.toISOString(),
        handoff: {
          target: { agent: request.target, projectDir, worktreeRoot: worktreeRoot(projectDir), expiresAt },
          brief: injected.text,
        },
      });
      return { checkpoint, brief: rendered.text };
    },

    async restore(request) {
      const session = resolve(request.sessionId);
      const at = now();
      let checkpoint = deps.userData.latestCheckpoint(session.id);
      const drift = await driftFor(session, checkpoint, at);
      const lines: string[] = [];
      if (checkpoint) {
        const band = STALENESS_LABELS[stalenessBand(checkpoint.createdAt, at)];
        lines.push(`Latest checkpoint ${checkpoint.createdAt} (${band}), status ${checkpoint.status}.`);
      } else lines.push('No checkpoint for this session: the brief is built from the transcript alone.');
      // Described from the whole drift (exact counts); returned cut to what a reader can use.
      lines.push(describeDrift(drift));
      let result: BriefResult | null = null;
      if (request.confirmed) {
        result = await brief(session, briefOptions({ target: request.target, budget: request.budget, redact: request.redact }), at, drift);
        if (checkpoint) checkpoint = deps.userData.markReceived(checkpoint.id, at.toISOString()) ?? checkpoint;
      }
      return { sessionId: session.id, checkpoint: checkpoint && boundCheckpoint(checkpoint), drift: drift && boundDrift(drift), summary: lines.join(' '), brief: result };
    },

    completeHandoff({ checkpointId, sessionId }) {
      let id = checkpointId;
      if (!id) {
        if (!sessionId) throw new ApiError('bad_request', 'completeHandoff needs a checkpoint id or a session.');
        const session = resolve(sessionId);
        id = deps.userData.latestCheckpoint(session.id)?.id;
        if (!id) throw new ApiError('not_found', `Session ${session.id} has no checkpoint to complete.`);
      }
      const done = deps.userData.markCompleted(id, now().toISOString());
      if (!done) throw new ApiError('not_found', `No checkpoint ${id}.`);
      return done;
    },

    handoffStatus() {
      const staleBefore = new Date(now().getTime() - STALE_PENDING_MS).toISOString();
      try {
        return { storeOk: true, error: null, ...deps.userData.handoffStats(staleBefore, now().toISOString()) };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        return { storeOk: false, error, pending: 0, stalePending: 0, lastCompletedAt: null, lastCompletedSessionId: null };
      }
    },

    pinDecision({ sessionId, seq, pinned }) {
      const session = resolve(sessionId);
      if (!pinned) {
        deps.userData.removePin(session.id, seq);
        return { pinned: false };
      }
      const message = messageAt(deps.reader, session.id, seq);
      if (!message) throw new ApiError('not_found', `Session ${session.id} has no message #${seq}.`);
      deps.userData.setPin({ sessionId: session.id, seq, text: message.text, pinnedAt: now().toISOString() });
      return { pinned: true };
    },

    async exportDelimit(sessionId, options = {}) {
      const session = resolve(sessionId);
      const at = now();
      const { data } = await maybeRedact(await gather(session, at), options.redact !== false);
      const record = toDelimitRecord(data, at);
      const file = options.write ? writeDelimitRecord(record, options.dir ?? defaultDelimitDir(deps.home)) : null;
      return { record, file };
    },

    async exportContextRelay(sessionId, dir, options = {}) {
      const session = resolve(sessionId);
      const { data } = await maybeRedact(await gather(session, now()), options.redact !== false);
      return writeContextRelay(data, dir);
    },
  };
}

/**
 * Redactions as the reader sees them: markers present in the output, by kind (a secret in a
 * message the budget trimmed away, or in a field a format does not carry, is not counted).
 */
function countsInOutput(found: RedactionCounts, text: string): RedactionCounts {
  const out: RedactionCounts = {};
  for (const kind of Object.keys(found)) {
    const n = text.split(`[REDACTED:${kind}]`).length - 1;
    if (n > 0) out[kind] = n;
  }
  return out;
}

/** The message at `seq`: seqs are dense from 0, so it is the seq-th message; verified, with a scan as fallback. */
function messageAt(reader: TranscriptReader, sessionId: string, seq: number) {
  const [direct] = reader.getMessages(sessionId, { offset: seq, limit: 1, order: 'asc' });
  if (direct?.seq === seq) return direct;
  const pageSize = 1000;
  for (let offset = 0; ; offset += pageSize) {
    const page = reader.getMessages(sessionId, { offset, limit: pageSize, order: 'asc' });
    const hit = page.find((m) => m.seq === seq);
    if (hit) return hit;
    if (page.length < pageSize || (page[page.length - 1]?.seq ?? 0) > seq) return null;
  }
}
