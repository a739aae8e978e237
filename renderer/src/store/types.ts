/** The renderer's state shape, split in slices (list, preview, settings, shell) that share one store. */
import type {
  Checkpoint,
  BriefFormat,
  BriefResult,
  DesktopStatus,
  HealthInfo,
  IndexProgress,
  McpInfo,
  OpenInAgentResult,
  RestoreResult,
  SearchHit,
  SessionSummary,
  SettingsView,
} from '../../../shared/api-types.js';
import type { BatonClient } from '../../../shared/contract.js';
import type { SessionUsage, UsageAlert, UsageSummary } from '../../../shared/usage.js';
import type { AgentId, Session, SourceStatus } from '../../../shared/model.js';
import type { BriefTarget, SettingsPatch } from '../../../shared/settings.js';
import type { CheckpointDraft } from './checkpoint-draft.js';
import type { ConnectionState, RendererTransport } from '../transport/types.js';
import type { SessionRow } from './rows.js';
import type { StateWatch } from './when-state.js';

export type View = 'list' | 'preview' | 'settings';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** A usage alert's one action (hand off); such a notice stays until acted on or dismissed. */
  alert?: UsageAlert;
}

export interface AppDeps {
  client: BatonClient;
  /** The same calls with secrets unmasked, for the preview's "Reveal secrets" (default: `client`). */
  revealClient?: BatonClient;
  transport: RendererTransport;
  clipboard: { writeText(text: string): Promise<void> };
  /** First page size (small, for a fast first paint) and the page size after it. */
  firstPage?: number;
  pageSize?: number;
  /** Debounce before the selection is sent to the core (default SELECTION_SYNC_DELAY_MS). */
  selectionSyncMs?: number;
}

export interface ShellSlice {
  client: BatonClient;
  connection: ConnectionState;
  transportKind: 'ipc' | 'http';
  view: View;
  health: HealthInfo | null;
  progress: IndexProgress | null;
  sources: SourceStatus[];
  notices: Notice[];
  init(): () => void;
  setView(view: View): void;
  notify(level: Notice['level'], message: string, alert?: UsageAlert): void;
  dismissNotice(id: number): void;
  refreshSources(): Promise<void>;
}

export interface ListSlice {
  sessions: SessionSummary[];
  sessionsById: Map<string, SessionSummary>;
  sessionsTotal: number;
  sessionsLoaded: boolean;
  sessionsLoading: boolean;
  listError: string | null;
  filterAgent: AgentId | null;
  filterProject: string | null;
  query: string;
  hits: SearchHit[] | null;
  searchPending: boolean;
  searchError: string | null;
  rows: SessionRow[];
  cursor: number;
  /** The session the user picked; the cursor follows it across reloads. */
  selectedId: string | null;
  loadSessions(): Promise<void>;
  setQuery(query: string): void;
  setFilterAgent(agent: AgentId | null): void;
  setFilterProject(project: string | null): void;
  moveCursor(delta: number): void;
  setCursor(index: number): void;
}

export type RestoreState =
  | { phase: 'idle' }
  | { phase: 'loading' }
  | { phase: 'drift'; result: RestoreResult }
  | { phase: 'confirming'; result: RestoreResult }
  | { phase: 'done'; result: RestoreResult }
  | { phase: 'error'; message: string };

export interface PreviewSlice {
  previewId: string | null;
  previewSession: Session | SessionSummary | null;
  target: BriefTarget;
  format: BriefFormat;
  brief: BriefResult | null;
  briefLoading: boolean;
  briefError: string | null;
  raw: boolean;
  /** The person asked to see this preview's secrets unmasked (off again for the next session). */
  revealed: boolean;
  /** What a copy is waiting for (shown while it waits), or null when no copy is pending. */
  copyStatus: string | null;
  /** The agent the user picked in "Open in"; null follows the target (see lib/open-target.ts). */
  openAgent: AgentId | null;
  openResult: OpenInAgentResult | null;
  /** Handoffs of the previewed session to named agents, newest first. */
  handoffs: Checkpoint[];
  restore: RestoreState;
  /** Opens `sessionId`, or the row under the cursor once a pending search has settled. */
  openPreview(sessionId?: string): void;
  closePreview(): void;
  setTarget(target: BriefTarget): void;
  setFormat(format: BriefFormat): void;
  setRaw(raw: boolean): void;
  setRevealed(revealed: boolean): void;
  loadBrief(): Promise<void>;
  /** Copies the brief for what is chosen now (session, target, format), waiting for it if needed. */
  copyBrief(): Promise<boolean>;
  /** Copies `sessionId`'s Markdown brief for `target` (a usage alert's handoff), whatever is previewed. */
  copyBriefFor(sessionId: string, target: BriefTarget): Promise<boolean>;
  setOpenAgent(agent: AgentId): void;
  /** Opens `target`, or the "Open in" choice, once the session's agent is known. */
  openInAgent(target?: AgentId): Promise<void>;
  /** Saves a pending handoff to `target`, copies its brief and starts the agent in the folder. */
  handOff(target: AgentId): Promise<void>;
  /** Continue the previewed session natively in `target` (a new session in its own store) and resume it in a terminal. */
  continueIn(target: AgentId): Promise<void>;
  loadHandoffs(): Promise<void>;
  createCheckpoint(draft: CheckpointDraft): Promise<boolean>;
  startRestore(): Promise<void>;
  confirmRestore(): Promise<void>;
  cancelRestore(): void;
}

export interface SettingsSlice {
  settingsView: SettingsView | null;
  settingsError: string | null;
  /** A settings request is out (briefs wait for the first one: target, budget, redaction). */
  settingsLoading: boolean;
  mcp: McpInfo | null;
  mcpError: string | null;
  /** The tray app's state (null until loaded or when it fails); mode 'desktop' enables folder pickers. */
  desktopStatus: DesktopStatus | null;
  loadSettings(): Promise<void>;
  updateSettings(patch: SettingsPatch): Promise<boolean>;
  loadMcp(): Promise<void>;
  regenerateToken(): Promise<void>;
  loadDesktopStatus(): Promise<void>;
}

export interface UsageSlice {
  /** Per agent: today, windows, limit hit, live sessions (null until the first load). */
  usage: UsageSummary | null;
  /** Live sessions' usage by session id (the list's context meters). */
  liveUsage: Map<string, SessionUsage>;
  /** The previewed session's usage: `for` names the session it belongs to; null usage = none recorded. */
  sessionUsage: { for: string; usage: SessionUsage | null } | null;
  sessionUsageError: string | null;
  loadUsage(): Promise<void>;
  loadSessionUsage(sessionId: string): Promise<void>;
  /** A usage alert's action: a handoff of the session to the suggested agent (brief also copied). */
  handOffAlert(alert: UsageAlert): Promise<boolean>;
}

export type AppState = ShellSlice & ListSlice & PreviewSlice & SettingsSlice & UsageSlice;

export type SliceCreator<T> = (
  set: (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void,
  get: () => AppState,
  deps: AppDeps,
  store: StateWatch,
) => T;

export const BRIEF_FORMATS: readonly BriefFormat[] = ['md', 'delimit', 'govzero', 'envelope'];
export const FORMAT_LABELS: Record<BriefFormat, string> = {
  md: 'Brief (Markdown)',
  delimit: 'Delimit JSON',
  govzero: 'GovZero',
  envelope: 'Envelope',
};
