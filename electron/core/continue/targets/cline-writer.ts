/**
 * Continue natively in Cline CLI (tested 3.0.65): a new session folder `<sessions>/<id>/` with the
 * transcript `<id>.messages.json` (version 1, Anthropic-style text blocks, typed prompts wrapped in
 * `<user_input mode="act">` as Cline stores them) and the manifest `<id>.json` (cwd, workspace
 * root, provider/model, title), ids shaped like Cline's (`<ms>_<5 chars>`). Cline's `sessions.db`
 * index is not written: it is a live database of Cline's hub, and Cline's own resume
 * (`cline --id <id>`, TUI only) loads the folder and adds the index row itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, planHex } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

export const CLINE_TESTED_VERSION = '3.0.65';

/** `<ms>_<5 lowercase alphanumerics>`, as Cline names sessions; deterministic from the plan. */
export function clineSessionId(plan: ContinuationPlan): string {
  return `${Date.parse(plan.createdAt)}_${planHex(plan, 'cline-session', 5)}`;
}

export interface ClineModel {
  provider: string;
  model: string;
}

/** The provider Cline last used and its model (`settings/providers.json`); Cline falls back by itself when absent. */
export function clineDefaultModel(dataDir: string): ClineModel {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings', 'providers.json'), 'utf8')) as { lastUsedProvider?: unknown; providers?: Record<string, { settings?: { model?: unknown } }> };
    const provider = typeof s.lastUsedProvider === 'string' ? s.lastUsedProvider : null;
    const model = provider ? s.providers?.[provider]?.settings?.model : undefined;
    if (provider) return { provider, model: typeof model === 'string' ? model : '' };
  } catch {
    /* no settings */
  }
  return { provider: 'cline', model: '' };
}

/** Where Cline's session folders are: the root itself under CLINE_SESSION_DATA_DIR, else `<data dir>/sessions`. */
function layout(env: WriterEnv): { sessions: string; dataDir: string } {
  const root = env.storeRoots[0];
  if (!root) throw new Error('no Cline store root');
  const own = env.environment.env.CLINE_SESSION_DATA_DIR?.trim();
  if ((own && path.resolve(own) === path.resolve(root)) || path.basename(root) === 'sessions') return { sessions: root, dataDir: path.dirname(root) };
  return { sessions: path.join(root, 'sessions'), dataDir: root };
}

export function clineSessionFiles(plan: ContinuationPlan, sessionId: string, messagesPath: string, model: ClineModel): { manifest: string; messages: string } {
  const messages = continuedMessages(plan);
  const first = messages[0]!;
  const last = messages[messages.length - 1]!;
  const transcript = {
    version: 1,
    updated_at: last.timestamp,
    agent: 'lead',
    sessionId,
    origin: { source: 'cli', mode: 'user', sessionId, version: CLINE_TESTED_VERSION },
    messages: messages.map((m, i) => ({
      id: `msg_baton_${planHex(plan, `cline-message-${i}`, 8)}`,
      role: m.role,
      content: [{ type: 'text', text: m.role === 'user' ? `<user_input mode="act">${m.text}</user_input>` : m.text }],
      ts: m.ms,
      ...(m.role === 'assistant' ? { modelInfo: { id: model.model, provider: model.provider } } : {}),
    })),
  };
  const manifest = {
    version: 1,
    session_id: sessionId,
    source: 'cli',
    pid: 0,
    started_at: first.timestamp,
    ended_at: last.timestamp,
    exit_code: 0,
    status: 'completed',
    interactive: true,
    provider: model.provider,
    model: model.model,
    cwd: plan.cwd,
    workspace_root: plan.cwd,
    enable_tools: true,
    enable_spawn: true,
    enable_teams: false,
    prompt: first.text.slice(0, 500),
    metadata: { title: plan.title },
    messages_path: messagesPath,
  };
  return { manifest: `${JSON.stringify(manifest, null, 2)}\n`, messages: `${JSON.stringify(transcript, null, 2)}\n` };
}

export const clineWriter: NativeWriter = {
  agent: 'cline',
  testedVersion: CLINE_TESTED_VERSION,

  // Cline resumes with the user's provider; Claude-class models (its usual default) take 200k.
  contextWindow: () => 200_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    return installedWithStore(env, 'cline', 'Cline', layout(env).sessions);
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const sessionId = clineSessionId(plan);
    const { sessions, dataDir } = layout(env);
    const finalMessages = path.join(sessions, sessionId, `${sessionId}.messages.json`);
    const { manifest, messages } = clineSessionFiles(plan, sessionId, finalMessages, clineDefaultModel(dataDir));
    // Laid out as a data dir (`sessions/<id>/…`) for Baton's Cline reader.
    const stagedStore = path.join(stagingRoot, 'cline');
    const stagedSessions = path.join(stagedStore, 'sessions');
    const transcript = stageFile(stagedSessions, path.join(sessionId, `${sessionId}.messages.json`), finalMessages, messages);
    const manifestFile = stageFile(stagedSessions, path.join(sessionId, `${sessionId}.json`), path.join(sessions, sessionId, `${sessionId}.json`), manifest);
    return { nativeId: sessionId, files: [transcript, manifestFile], readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['cline', '--id', staged.nativeId], undo, warnings: [] };
  },
};
