/**
 * Continue natively in GitHub Copilot CLI (tested 1.0.102): a new session folder
 * `<COPILOT_HOME | ~/.copilot>/session-state/<uuid>/` holding `events.jsonl` — Copilot's typed
 * events chained by `id`/`parentId`: `session.start` (with the cwd), then per turn `user.message`,
 * `assistant.turn_start`, `assistant.message`, `assistant.turn_end` — and `workspace.yaml` with the
 * session's name. Resumed with `copilot --resume=<uuid>`, which rebuilds the conversation from the
 * events alone and adds the session to its own `session-store.db` index by itself (checked with the
 * real CLI), so Baton never writes that database.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planUuid } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

const TESTED = '1.0.102';

export function copilotEvents(plan: ContinuationPlan, sessionId: string): string {
  const messages = continuedMessages(plan);
  const records: Record<string, unknown>[] = [];
  let parentId: string | null = null;
  const event = (type: string, data: Record<string, unknown>, timestamp: string) => {
    const id = planUuid(plan, `copilot-event-${records.length}`);
    records.push({ type, data, id, timestamp, parentId });
    parentId = id;
  };
  const start = messages[0]!.timestamp;
  event('session.start', { sessionId, version: 1, producer: 'copilot-agent', copilotVersion: TESTED, startTime: start, context: { cwd: plan.cwd } }, start);
  let turn = 0;
  let interactionId = '';
  for (const m of messages) {
    if (m.role === 'user') {
      interactionId = planUuid(plan, `copilot-interaction-${turn}`);
      event('user.message', { content: m.text, interactionId }, m.timestamp);
      continue;
    }
    const turnId = String(turn++);
    event('assistant.turn_start', { turnId, interactionId }, m.timestamp);
    event('assistant.message', { messageId: planUuid(plan, `copilot-message-${turnId}`), content: m.text, toolRequests: [], interactionId, turnId }, m.timestamp);
    event('assistant.turn_end', { turnId }, m.timestamp);
  }
  return jsonl(records);
}

/**
 * Copilot's own keys; `user_named` keeps the name Baton gave it, as a `/rename` would. One line per
 * value: Copilot 1.0.102 finds no session by a name folded over two lines, though the YAML is valid.
 */
export function copilotWorkspace(plan: ContinuationPlan, sessionId: string): string {
  const messages = continuedMessages(plan);
  return stringify({
    id: sessionId,
    cwd: plan.cwd,
    name: plan.title,
    user_named: true,
    summary_count: 0,
    fork_count: 0,
    created_at: messages[0]!.timestamp,
    updated_at: messages[messages.length - 1]!.timestamp,
  }, { lineWidth: 0 });
}

function copilotHome(env: WriterEnv): string {
  const dir = env.storeRoots[0];
  if (!dir) throw new Error('no Copilot CLI store root');
  return dir;
}

export const copilotWriter: NativeWriter = {
  agent: 'copilot',
  testedVersion: TESTED,

  // Copilot CLI caps a request at the model's prompt limit; 128k is what it assumes for a model it
  // does not know (BYOK) and the smallest of its default models' limits.
  contextWindow: () => 128_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    // Copilot locks a session only while a process has it open (.session-operation-locks/<id>.lock): a new one has none.
    return installedWithStore(env, 'copilot', 'Copilot CLI', env.storeRoots[0]);
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const sessionId = planUuid(plan, 'copilot-session');
    const home = copilotHome(env);
    const stagedStore = path.join(stagingRoot, 'copilot', '.copilot');
    const folder = path.join('session-state', sessionId);
    const events = stageFile(stagedStore, path.join(folder, 'events.jsonl'), path.join(home, folder, 'events.jsonl'), copilotEvents(plan, sessionId));
    const workspace = stageFile(stagedStore, path.join(folder, 'workspace.yaml'), path.join(home, folder, 'workspace.yaml'), copilotWorkspace(plan, sessionId));
    return { nativeId: sessionId, files: [events, workspace], readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['copilot', `--resume=${staged.nativeId}`], undo, warnings: [] };
  },
};
