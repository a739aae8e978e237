/**
 * Continue natively in Letta Code (tested 0.32.18, local backend): a new conversation folder
 * `~/.letta/lc-local-backend/conversations/<base64url("conversation:<id>")>/` as Letta's local store
 * writes one — `conversation.json` (id, the agent it belongs to, title as `summary`, and every
 * message id in `in_context_message_ids`, which is what Letta puts in the model's context),
 * `manifest.json` (transcript format) and `messages.jsonl`, pi's session entries v3 whose messages
 * carry Letta's `ui-msg-N` ids and metadata. The conversation belongs to the local agent the user
 * last used (settings.json `sessionsByServer`), else the first one that is not a subagent.
 * Resumed with `letta --conversation <id>`, which finds the agent from the conversation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, UndoStep, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planHex } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

interface LettaAgent {
  id: string;
  /** `<provider>/<model>` as the agent record names it. */
  model: string | null;
}

function lettaRoot(env: WriterEnv): string {
  const root = env.storeRoots[0];
  if (!root) throw new Error('no Letta Code store root');
  // A root may be `~/.letta` or its `lc-local-backend/` folder (letta-adapter.ts).
  return path.basename(root) === 'lc-local-backend' ? path.dirname(root) : root;
}

function backendDir(env: WriterEnv): string {
  return path.join(lettaRoot(env), 'lc-local-backend');
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function agentRecord(backend: string, id: string): LettaAgent | null {
  const record = readJson(path.join(backend, 'agents', `${Buffer.from(id).toString('base64url')}.json`));
  if (!record || record.id !== id || record.hidden === true) return null;
  return { id, model: typeof record.model === 'string' ? record.model : null };
}

/** The local agent the user last used, else the first (by file name) that is not a hidden subagent. */
export function lettaTargetAgent(env: WriterEnv): LettaAgent | null {
  const backend = backendDir(env);
  const settings = readJson(path.join(lettaRoot(env), 'settings.json'));
  const sessions = settings?.sessionsByServer;
  const last = sessions && typeof sessions === 'object' ? (sessions as Record<string, { agentId?: unknown }>)[`local:${path.resolve(backend)}`]?.agentId : undefined;
  if (typeof last === 'string') {
    const agent = agentRecord(backend, last);
    if (agent) return agent;
  }
  let files: string[];
  try {
    files = fs.readdirSync(path.join(backend, 'agents')).filter((f) => f.endsWith('.json') && !f.startsWith('._')).sort();
  } catch {
    return null;
  }
  for (const file of files) {
    const id = Buffer.from(file.slice(0, -'.json'.length), 'base64url').toString('utf8');
    const agent = agentRecord(backend, id);
    if (agent) return agent;
  }
  return null;
}

/** The conversation folder's name: base64url of its key, as Letta's `encodePathSegment` writes it. */
export function lettaConversationFolder(conversationId: string): string {
  return Buffer.from(`conversation:${conversationId}`).toString('base64url');
}

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export function lettaConversationFiles(plan: ContinuationPlan, conversationId: string, agent: LettaAgent): { conversation: string; manifest: string; messages: string } {
  const messages = continuedMessages(plan);
  const [provider, ...rest] = (agent.model ?? 'baton/continued').split('/');
  const model = rest.join('/') || 'continued';
  const first = messages[0]!.timestamp;
  const last = messages[messages.length - 1]!.timestamp;
  const records: unknown[] = [{ type: 'session', version: 3, id: conversationId, timestamp: first, cwd: plan.cwd }];
  const ids: string[] = [];
  let parentId: string | null = null;
  messages.forEach((m, i) => {
    const entryId = planHex(plan, `letta-entry-${i}`, 8);
    const id = `ui-msg-${i + 1}`;
    ids.push(id);
    const metadata = { created_at: m.timestamp, updated_at: m.timestamp, agent_id: agent.id, conversation_id: conversationId };
    const content = [{ type: 'text', text: m.text }];
    const message =
      m.role === 'user'
        ? { id, role: 'user', content, timestamp: m.ms, metadata }
        : { id, role: 'assistant', content, api: 'openai-completions', provider, model, usage: ZERO_USAGE, stopReason: 'stop', timestamp: m.ms, metadata };
    records.push({ type: 'message', id: entryId, parentId, timestamp: m.timestamp, message });
    parentId = entryId;
  });
  const conversation = { id: conversationId, agent_id: agent.id, archived: false, archived_at: null, created_at: first, updated_at: last, last_message_at: last, summary: plan.title, in_context_message_ids: ids };
  const manifest = { schema_version: 2, message_format: 'pi-session-entry-jsonl', provider_stack: 'pi-ai', created_at: first };
  return { conversation: `${JSON.stringify(conversation, null, 2)}\n`, manifest: `${JSON.stringify(manifest, null, 2)}\n`, messages: jsonl(records) };
}

export const lettaWriter: NativeWriter = {
  agent: 'letta',
  testedVersion: '0.32.18',

  // Letta resumes with the agent's own model; the local backend's fallback window is 128k.
  contextWindow: () => 128_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    const installed = installedWithStore(env, 'letta', 'Letta Code', path.join(backendDir(env), 'agents'));
    if (!installed.ok) return installed;
    if (!lettaTargetAgent(env)) return { ok: false, reason: 'store_missing', message: `Letta Code has no local agent in ${backendDir(env)} yet: run \`letta --backend local\` once first` };
    return installed;
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const agent = lettaTargetAgent(env);
    if (!agent) throw new Error(`Letta Code has no local agent in ${backendDir(env)} to continue in`);
    // Not Letta's own `local-conv-<n>` numbering (which it counts up itself): a name of Baton's.
    const conversationId = `local-conv-baton-${planHex(plan, 'letta-conversation', 12)}`;
    const folder = path.join('conversations', lettaConversationFolder(conversationId));
    const stagedStore = path.join(stagingRoot, 'letta', 'lc-local-backend');
    const files = lettaConversationFiles(plan, conversationId, agent);
    // messages.jsonl first: it is the session file Baton reads (and what the undo steps name first).
    const staged = (['messages.jsonl', 'manifest.json', 'conversation.json'] as const).map((name) =>
      stageFile(stagedStore, path.join(folder, name), path.join(backendDir(env), folder, name), files[name === 'messages.jsonl' ? 'messages' : name === 'manifest.json' ? 'manifest' : 'conversation']),
    );
    return { nativeId: conversationId, files: staged, readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const dir = path.dirname(staged.files[0]!.finalPath);
    // conversation.json last: Letta lists a conversation once that file is there, by then whole.
    const placed = placeFiles(staged.files);
    // Undo runs newest first: Baton's files, then the compiled system prompt Letta adds to this
    // conversation's folder when it is resumed, then the folder itself (when Baton made it and it is empty).
    const folders = placed.filter((u) => u.kind === 'empty-dir');
    const undo: UndoStep[] = [...folders, { kind: 'file', path: path.join(dir, 'system-prompt.json') }, ...placed.filter((u) => u.kind !== 'empty-dir')];
    return { nativeId: staged.nativeId, resume: ['letta', '--conversation', staged.nativeId], undo, warnings: [] };
  },
};
