/**
 * Result types of the API contract. Shared by the core (which produces them) and the renderer
 * (which shows them); plain data only, so they cross IPC and HTTP as JSON unchanged.
 */
import type { LimitHit } from './limits.js';
import type { AgentId, Session, Message } from './model.js';
import type { BriefTarget, Settings } from './settings.js';
import type { UsageAlert } from './usage.js';
import type { AutoRun } from './auto-continue.js';

export interface IndexProgress {
  phase: 'idle' | 'scanning' | 'indexing' | 'watching' | 'error';
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** When the index was last brought current (ISO), null before the first pass ends. */
  currentAt: string | null;
  error: string | null;
  /** In the error phase: when ingest starts again (ISO); absent once Baton stopped retrying. */
  retryAt?: string;
}

export interface HealthInfo {
  ok: true;
  name: 'baton';
  version: string;
  uptimeSeconds: number;
  index: { phase: IndexProgress['phase']; sessions: number; currentAt: string | null };
}

export interface SettingsView {
  settings: Settings;
  /** Detected default store location per agent (before any override in settings). */
  detected: Record<AgentId, string[]>;
  /** Set when the settings file was unreadable and defaults are in use; says where the bad file went. */
  warning: string | null;
  /** Where settings and data live. */
  dataDir: string;
}

export type StalenessBand = 'fresh' | 'slightly_stale' | 'stale' | 'very_stale';

/** A session as lists show it: the model plus what the index knows about it. */
export interface SessionSummary extends Session {
  latestCheckpointAt: string | null;
  staleness: StalenessBand | null;
  /** The session this one continues (Baton wrote it with `baton continue`), when it is one. */
  continuedFrom?: string;
  /** Sessions Baton wrote into other agents continuing this one. */
  continuedIn?: string[];
}

export interface SessionPage {
  sessions: SessionSummary[];
  total: number;
}

export interface MessagePage {
  messages: Message[];
  total: number;
}

export interface SearchHit {
  sessionId: string;
  agent: AgentId;
  nativeId: string;
  title: string | null;
  cwd: string | null;
  seq: number;
  role: Message['role'];
  /** Snippet with matches wrapped in `[[` and `]]` (rendered as highlights; never HTML). */
  snippet: string;
  timestamp: string | null;
  score: number;
  /** The message is on a branch the user left (pi's /tree), not in the current conversation. */
  otherBranch?: boolean;
}

export interface GitSnapshot {
  isRepo: boolean;
  /** Why there is no snapshot (cwd missing, not a repo, git unavailable). */
  error: string | null;
  branch: string | null;
  head: string | null;
  headSubject: string | null;
  staged: string[];
  unstaged: string[];
  untracked: string[];
  ahead: number;
  behind: number;
  upstream: string | null;
  takenAt: string;
}

export interface GitDrift {
  /** Human-readable status of the comparison (e.g. "cwd no longer exists"). */
  error: string | null;
  branchSwitched: { from: string | null; to: string | null } | null;
  commitsSince: { hash: string; subject: string }[];
  filesChangedSince: string[];
  /** True counts when the lists above were cut to what a brief or restore shows (absent: the lists are whole). */
  commitsTotal?: number;
  filesChangedTotal?: number;
  workTreeChanged: boolean;
  now: GitSnapshot | null;
}

export type CheckpointStatus = 'pending' | 'received' | 'completed';

export interface Checkpoint {
  id: string;
  sessionId: string;
  idempotencyToken: string | null;
  summary: string;
  decisions: string[];
  nextSteps: string[];
  blockers: string[];
  itemsCompleted: string[];
  itemsAdded: string[];
  filesChanged: string[];
  git: GitSnapshot | null;
  continuesFrom: string | null;
  status: CheckpointStatus;
  createdAt: string;
  receivedAt: string | null;
  completedAt: string | null;
  /** Set when the checkpoint is a handoff to a named agent (`baton handoff`, "Hand off to …"). */
  handoff: HandoffTarget | null;
}

/** Where a handoff goes: the agent whose next session in `projectDir` receives the brief by itself. */
export interface HandoffTarget {
  agent: AgentId;
  projectDir: string;
  /** The git work tree holding projectDir, when there is one: a session anywhere in it matches. */
  worktreeRoot: string | null;
  expiresAt: string;
  /** `<agent>:<session id>` of the session that received it (its start-up hook injected the brief). */
  receivedBy: string | null;
}

/** What delivers a pending handoff to an agent when its session starts, and what installs it. */
export interface HandoffDeliveryInfo {
  /** `paste`: Baton installs nothing into this agent; `what` says why the brief is pasted. */
  via: 'hook' | 'plugin' | 'extension' | 'paste';
  /** For messages: "Baton's SessionStart hook", "Baton's OpenCode plugin", … (for `paste`: why). */
  what: string;
  /** The CLI command that installs it. */
  command: string;
  /** Where the app installs it ("Settings → Hooks"), when it can. */
  settings: string | null;
}

/** What `baton handoff` and the "Hand off to …" action return. */
export interface HandoffResult {
  checkpoint: Checkpoint;
  /** The brief as handed off (rendered for the target agent). */
  brief: string;
  /** Whether the target agent has Baton's start-up delivery installed (else the brief must be pasted). */
  hooksInstalled: boolean;
  /** How the target receives a handoff by itself, and what installs that. */
  delivery: HandoffDeliveryInfo;
  /** Present when the target agent was asked to be opened in a terminal. */
  opened: OpenInAgentResult | null;
}

export type BriefFormat = 'md' | 'delimit' | 'govzero' | 'envelope';

export interface BriefResult {
  sessionId: string;
  target: BriefTarget;
  format: BriefFormat;
  text: string;
  tokens: number;
  budget: number;
  /** Redactions made, by kind; empty when none or when redaction was turned off. */
  redactions: Record<string, number>;
  redacted: boolean;
  /** Shell command that opens the target agent in the session's cwd. */
  openCommand: string | null;
}

/** Health of the handoff (checkpoint) store, for health checks and the UI. */
export interface HandoffStatus {
  storeOk: boolean;
  /** Why the store is not ok; null when it is. */
  error: string | null;
  pending: number;
  /** Checkpoints still pending after five minutes: a handoff that never landed. */
  stalePending: number;
  lastCompletedAt: string | null;
  lastCompletedSessionId: string | null;
}

export interface RestoreResult {
  sessionId: string;
  checkpoint: Checkpoint | null;
  drift: GitDrift | null;
  summary: string;
  /** Present only when the restore was confirmed. */
  brief: BriefResult | null;
}

export interface PathCheck {
  path: string;
  exists: boolean;
  readable: boolean;
  sessions: number;
  error: string | null;
}

export interface McpInfo {
  url: string;
  port: number;
  token: string;
}

/** Baton's hooks in one agent's config (`baton hooks status`, Settings). */
export interface AgentHooksStatus {
  agent: AgentId;
  file: string;
  /** Every hook Baton offers for this agent is in the file, with this Baton's command. */
  installed: boolean;
  events: { event: string; installed: boolean; current: boolean }[];
  /** What the user must still do, or what cannot be done for this agent and why. */
  notes: string[];
}

export interface HooksChangeResult {
  agent: AgentId;
  file: string;
  ok: boolean;
  changed: boolean;
  backup: string | null;
  message: string;
  /** Unified diff of the change (the whole output of a dry run); empty when nothing changes. */
  diff: string;
}

export interface McpInstallResult {
  agent: AgentId;
  file: string;
  changed: boolean;
  backup: string | null;
  message: string;
}

/** What connecting to a machine in settings found (Settings → Machines, `baton remote test`). */
export interface MachineTestResult {
  label: string;
  /** Connected and Baton answered. */
  ok: boolean;
  version: string | null;
  platform: string | null;
  /** Sessions per agent Baton reads there. */
  agents: { agent: AgentId; sessions: number }[];
  /** Agents Baton there reads that this Baton does not know yet (update it to read them). */
  unknownAgents: { agent: string; sessions: number }[];
  /** Why not, with what to do (unreachable, host key, Baton missing or too old). */
  error: string | null;
}

export interface OpenInAgentResult {
  /** The exact command, shown as a copyable fallback. */
  command: string;
  launched: boolean;
  error: string | null;
  /** The agent takes no first prompt on its command line (Letta Code): it opened bare, and the brief is to be pasted. */
  pasteBrief?: boolean;
}

/** The tray app's own state, for the settings UI. Headless mode: mode 'headless', the rest null (not applicable). */
export interface DesktopStatus {
  mode: 'desktop' | 'headless';
  hotkey: {
    /** The accelerator from settings, as the user wrote it. */
    accelerator: string;
    /** How the platform shows it (⇧⌘B, Ctrl+Shift+B); null when it does not parse. */
    display: string | null;
    registered: boolean;
    /** Why it is not registered (invalid, taken by another app). */
    error: string | null;
  } | null;
  server: { url: string | null; error: string | null } | null;
  launchAtLogin: { enabled: boolean; error: string | null } | null;
}

/** A folder chosen with the system dialog; `available` is false where there is none (headless). */
export interface FolderPick {
  /** Null when the user cancelled, or when no dialog is available. */
  path: string | null;
  available: boolean;
}

/** The session the UI has selected, as the core stored it (a full id), or null for none. */
export interface SelectionState {
  session: string | null;
  /** The brief target the UI shows for it; the global hotkey copies that brief (absent: the default). */
  target?: BriefTarget;
}

/** Pushed from the core to UIs (IPC events in Electron, server-sent events over HTTP). */
export type ApiEvent =
  | { type: 'index-progress'; progress: IndexProgress }
  | { type: 'sessions-changed'; sessionIds: string[] }
  | { type: 'settings-changed' }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  /** A live session crossed the context threshold, or an agent hit its usage limit. */
  | { type: 'usage-alert'; alert: UsageAlert }
  /** Baton carried a session on unattended (or found no agent with room): what it did, as stored. */
  | { type: 'auto-continue'; run: AutoRun }
  /**
   * A session hit its limit while Baton watched (a hit ingested after the watch started and recorded
   * no earlier than that: never one a cold index imports). Not gated by the alert setting.
   */
  | { type: 'limit-hit'; hit: LimitHit }
  /** Desktop only: the tray asks the window to show a view (sent to the window, never over HTTP). */
  | { type: 'navigate'; view: 'list' | 'settings' | 'checkpoint'; sessionId?: string };

/** A session continued natively in another agent (`baton continue`, `continue_session`, the popover). */
export interface ContinueResult {
  /** The agent the session now continues in. */
  agent: AgentId;
  /** That agent's own session id. */
  session: string;
  /** Baton's id of it, `<agent>:<session>`. */
  sessionId: string;
  /** The session it continues. */
  source: string;
  /** argv that resumes it, run in `cwd`. */
  resume: string[];
  /** The same, as a command to paste into a shell (cd to the folder first). */
  resumeCommand: string;
  cwd: string;
  title: string;
  /** Tokens of the written conversation, and the target model's window they fit in. */
  tokens: number;
  contextWindow: number;
  /** Verbatim turns carried (besides the brief that opens the session). */
  turns: number;
  /** True when this source state was continued into this agent before: the session already written is returned. */
  reused: boolean;
  /** What was left out or changed on the way (tool calls as text, reasoning dropped, secrets redacted). */
  notes: string[];
  /** E.g. the installed target is newer than the version Baton was tested with. */
  warnings: string[];
  /** With `open`: the terminal started (or the command to run when none could be). */
  opened: OpenInAgentResult | null;
}

/** What `baton continue --undo` removed. */
export interface ContinueUndoResult {
  sessionId: string;
  removed: string[];
}
