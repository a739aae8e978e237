/**
 * The one API contract between the UI and the core. Every call is one entry: a zod schema for its
 * input and the TypeScript type of its result. From this object, generically, come the Electron
 * IPC handlers, the preload bridge, the HTTP routes of headless mode and the renderer's client.
 * Adding a call = one entry here + its implementation in the core (`electron/core/api.ts`).
 */
import { z } from 'zod';
import { AGENTS } from './model.js';
import type { Session } from './model.js';
import { BRIEF_TARGETS, SettingsPatchSchema } from './settings.js';
import type {
  AgentHooksStatus,
  HandoffResult,
  ContinueResult,
  ContinueUndoResult,
  HooksChangeResult,
  BriefResult,
  Checkpoint,
  HandoffStatus,
  HealthInfo,
  IndexProgress,
  McpInfo,
  McpInstallResult,
  MessagePage,
  OpenInAgentResult,
  MachineTestResult,
  DesktopStatus,
  FolderPick,
  PathCheck,
  RestoreResult,
  SearchHit,
  SelectionState,
  SessionPage,
  SettingsView,
} from './api-types.js';
import type { SourceStatus } from './model.js';
import { AUTO_TRIGGERS, type AutoStatus } from './auto-continue.js';
import { USAGE_GROUPINGS, type BlockUsage, type DayUsage, type ModelUsage, type SessionUsage, type UsageSummary } from './usage.js';

/** A call: its input schema, plus its result type carried as a phantom. */
export interface ApiCall<I extends z.ZodType, O> {
  readonly input: I;
  readonly summary: string;
  /** Never set: only carries the result type. */
  readonly result?: O;
}

function call<O>() {
  return <I extends z.ZodType>(input: I, summary: string): ApiCall<I, O> => ({ input, summary });
}

const none = z.object({}).strict();
const agent = z.enum(AGENTS);
/** A session reference: full id (`codex:<nativeId>`), id prefix, or title words. */
const sessionRef = z.string().trim().min(1).max(500);
const briefFormat = z.enum(['md', 'delimit', 'govzero', 'envelope']);
const textList = z.array(z.string().trim().min(1).max(4000)).max(200).default([]);

export const SessionFiltersSchema = z.object({
  agent: agent.optional(),
  /** Substring of the session's cwd. */
  project: z.string().max(1000).optional(),
  branch: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
});

export const BriefRequestSchema = z.object({
  session: sessionRef,
  target: z.enum(BRIEF_TARGETS).optional(),
  format: briefFormat.default('md'),
  budget: z.number().int().min(500).max(200_000).optional(),
  /** Redaction is on unless explicitly turned off for this brief. */
  redact: z.boolean().default(true),
});

export const CheckpointRequestSchema = z.object({
  session: sessionRef,
  summary: z.string().trim().min(1).max(20_000),
  decisions: textList,
  nextSteps: textList,
  blockers: textList,
  itemsCompleted: textList,
  itemsAdded: textList,
  filesChanged: textList,
  idempotencyToken: z.string().min(1).max(200).optional(),
  continuesFrom: z.string().max(200).optional(),
});

export const batonApi = {
  health: call<HealthInfo>()(none, 'Version, uptime and index status.'),
  indexProgress: call<IndexProgress>()(none, 'Cold-index progress for the progress bar.'),
  sourceStatus: call<SourceStatus[]>()(none, 'Per-agent store status and diagnostics.'),

  getSettings: call<SettingsView>()(none, 'Current settings with detected default paths.'),
  updateSettings: call<SettingsView>()(SettingsPatchSchema, 'Change settings; applied live and saved atomically.'),
  checkPath: call<PathCheck>()(
    z.object({ agent, path: z.string().min(1).max(4096) }),
    'Validate a store path: exists, readable, sessions found.',
  ),

  listSessions: call<SessionPage>()(SessionFiltersSchema, 'Sessions, newest first.'),
  getSession: call<Session>()(z.object({ session: sessionRef }), 'One session by reference.'),
  getMessages: call<MessagePage>()(
    z.object({
      session: sessionRef,
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    'A page of a session’s messages in order.',
  ),
  search: call<SearchHit[]>()(
    z.object({
      query: z.string().max(1000),
      agent: agent.optional(),
      /** Only hits from this session (a session reference). */
      session: sessionRef.optional(),
      limit: z.number().int().min(1).max(200).default(50),
    }),
    'Full-text search with filters (agent:, project:, branch:, after:, before:).',
  ),

  generateBrief: call<BriefResult>()(BriefRequestSchema, 'Render a handoff brief without restoring.'),
  createCheckpoint: call<Checkpoint>()(CheckpointRequestSchema, 'Save a checkpoint (idempotent by token).'),
  listCheckpoints: call<Checkpoint[]>()(z.object({ session: sessionRef }), 'Checkpoints of a session, newest first.'),
  restore: call<RestoreResult>()(
    z.object({
      session: sessionRef,
      confirmed: z.boolean().default(false),
      target: z.enum(BRIEF_TARGETS).optional(),
      budget: z.number().int().min(500).max(200_000).optional(),
    }),
    'Drift first; with confirmed=true, the brief (and the checkpoint is marked received).',
  ),
  completeHandoff: call<Checkpoint>()(
    z.object({ session: sessionRef.optional(), checkpointId: z.string().trim().min(1).max(200).optional() }),
    'The receiving agent marks a handoff completed: the named checkpoint, or the session’s latest one.',
  ),
  usageReport: call<{ by: 'session'; rows: SessionUsage[] } | { by: 'day'; rows: DayUsage[] } | { by: 'block'; rows: BlockUsage[] } | { by: 'model'; rows: ModelUsage[] }>()(
    z.object({
      by: z.enum(USAGE_GROUPINGS).default('session'),
      agent: agent.optional(),
      /** ISO date or date-time: only requests at or after it. */
      since: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}/, 'since must be a date (YYYY-MM-DD)').optional(),
    }),
    'Token usage and cost by session, day, 5-hour block or model.',
  ),
  usageSummary: call<UsageSummary>()(
    z.object({ agent: agent.optional(), session: sessionRef.optional() }),
    'Per agent: today’s tokens and cost, usage windows, a limit hit, live sessions with their context fill; or one session’s usage.',
  ),
  handoffStatus: call<HandoffStatus>()(none, 'Checkpoint store health: stale pending handoffs, last completed handoff.'),
  handOff: call<HandoffResult>()(
    z.object({ session: sessionRef, target: agent, open: z.boolean().default(false) }).strict(),
    'Hand a session off to an agent: a pending handoff for its folder (the brief arrives by the agent’s start-up hook); open=true starts the agent in a terminal there.',
  ),
  continueSession: call<ContinueResult>()(
    z.object({ session: sessionRef, target: agent, cwd: z.string().trim().min(1).max(4096).optional(), open: z.boolean().default(false) }).strict(),
    'Continue a session natively in another agent: a new session in that agent’s own store (newest turns verbatim, the brief for the rest), resumable with its own command; open=true resumes it in a terminal.',
  ),
  undoContinue: call<ContinueUndoResult>()(
    z.object({ session: z.string().trim().min(1).max(300) }).strict(),
    'Remove a session Baton continued into another agent: exactly the files and index rows it wrote.',
  ),
  listHandoffs: call<Checkpoint[]>()(
    z.object({ session: sessionRef.optional(), limit: z.number().int().min(1).max(200).default(20) }).strict(),
    'Handoffs to named agents, newest first (of one session, or all): pending, received by …, completed.',
  ),
  autoStatus: call<AutoStatus>()(
    z.object({ limit: z.number().int().min(1).max(200).default(20) }).strict(),
    'Unattended continuation: the folders switched on (agents in order, triggers) and what Baton did there, newest first.',
  ),
  setAutoContinue: call<AutoStatus>()(
    z
      .object({
        folder: z.string().trim().min(1).max(4096),
        on: z.boolean(),
        /** The agents that carry on, in order (required to switch on). */
        targets: z.array(agent).max(AGENTS.length).optional(),
        when: z.array(z.enum(AUTO_TRIGGERS)).min(1).max(AUTO_TRIGGERS.length).optional(),
      })
      .strict(),
    'Switch unattended continuation on (with the agents in order and the triggers) or off for a folder.',
  ),
  hooksStatus: call<AgentHooksStatus[]>()(
    z.object({ agent: z.union([agent, z.literal('all')]).default('all') }).strict(),
    'Whether Baton’s hooks are installed in each agent (Claude Code, Codex, Hermes) and what each still needs.',
  ),
  installHooks: call<HooksChangeResult[]>()(
    z.object({ agent: z.union([agent, z.literal('all')]), uninstall: z.boolean().default(false), dryRun: z.boolean().default(false) }).strict(),
    'Install (or remove) Baton’s hooks in an agent’s own config: backup first, only Baton’s entries.',
  ),
  pinDecision: call<{ pinned: boolean }>()(
    z.object({ session: sessionRef, seq: z.number().int().min(0), pinned: z.boolean() }),
    'Pin or unpin a message as a settled decision.',
  ),

  mcpInfo: call<McpInfo>()(none, 'MCP endpoint URL and token.'),
  regenerateToken: call<McpInfo>()(none, 'Replace the access token (old one stops working).'),
  installMcp: call<McpInstallResult[]>()(
    z.object({ agent: z.union([agent, z.literal('all')]), dryRun: z.boolean().default(false) }),
    'Register Baton’s MCP endpoint in an agent’s configuration.',
  ),
  openInAgent: call<OpenInAgentResult>()(
    z.object({ session: sessionRef, target: agent }),
    'Start the target agent in a new terminal in the session’s cwd with the brief as first prompt.',
  ),
  testMachine: call<MachineTestResult>()(
    z.object({ machine: z.string().trim().min(1).max(300) }).strict(),
    'Connect to a machine in settings (label or destination): reachable, Baton version there, agents and session counts.',
  ),
  desktopStatus: call<DesktopStatus>()(none, 'Tray app state: hotkey registration, MCP server, launch at login (headless: not applicable).'),
  setSelection: call<SelectionState>()(
    z.object({ session: sessionRef.nullable(), target: z.enum(BRIEF_TARGETS).optional() }).strict(),
    'The session the UI has selected (null: none) and the target it shows; the global hotkey copies that brief.',
  ),
  pickFolder: call<FolderPick>()(
    z.object({ title: z.string().max(200).optional(), defaultPath: z.string().max(4096).optional() }).strict(),
    'Choose a folder with the system dialog (desktop only; headless answers available: false).',
  ),
} as const;

export type BatonContract = typeof batonApi;
export type ApiMethod = keyof BatonContract;
export const API_METHODS = Object.keys(batonApi) as ApiMethod[];

export type ApiInput<M extends ApiMethod> = z.input<BatonContract[M]['input']>;
export type ApiParsedInput<M extends ApiMethod> = z.output<BatonContract[M]['input']>;
export type ApiResult<M extends ApiMethod> = BatonContract[M] extends ApiCall<z.ZodType, infer O> ? O : never;

/** What the renderer calls: every method, input as the caller may write it. */
export type BatonClient = { [M in ApiMethod]: (input?: ApiInput<M>) => Promise<ApiResult<M>> };

/** What the core implements: every method, input already validated and defaulted. */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiParsedInput<M>) => Promise<ApiResult<M>> };

export function isApiMethod(name: string): name is ApiMethod {
  return Object.prototype.hasOwnProperty.call(batonApi, name);
}

/** Error shape that crosses every transport. `code` lets UIs react without parsing text. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; details?: unknown };
}
export type ApiErrorCode = 'bad_request' | 'not_found' | 'ambiguous' | 'unauthorized' | 'forbidden' | 'internal';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Validate raw input for `method`; throws ApiError('bad_request') with the zod issues. */
export function parseApiInput<M extends ApiMethod>(method: M, raw: unknown): ApiParsedInput<M> {
  const result = batonApi[method].input.safeParse(raw ?? {});
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
    throw new ApiError('bad_request', `Invalid input for ${method}: ${issues.join('; ')}`, issues);
  }
  return result.data as ApiParsedInput<M>;
}

export const IPC_CHANNEL_PREFIX = 'baton:';
export const IPC_EVENT_CHANNEL = 'baton:event';
