/**
 * Continue natively in Qwen Code (tested 0.24.4): a new transcript
 * `<QWEN_RUNTIME_DIR | QWEN_HOME | ~/.qwen>/projects/<cwd, non-alphanumerics → '-'>/chats/<sessionId>.jsonl`
 * of Qwen's own records (one `uuid`/`parentUuid` chain, Gemini `Content` payloads, the cwd in every
 * record: Qwen resumes a session only when its first record's cwd is the project it runs in), ending
 * with a `custom_title` record as `/rename` writes it. Resumed with `qwen --resume <sessionId>`.
 */
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planUuid } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

const TESTED = '0.24.4';

/** Qwen Code's `sanitizeCwd` (lower-cased first on Windows). */
export function qwenProjectFolder(cwd: string, platform: NodeJS.Platform = process.platform): string {
  return (platform === 'win32' ? cwd.toLowerCase() : cwd).replace(/[^a-zA-Z0-9]/g, '-');
}

export function qwenTranscript(plan: ContinuationPlan, sessionId: string): string {
  const base = { sessionId, cwd: plan.cwd, version: TESTED };
  const records: Record<string, unknown>[] = [];
  let parentUuid: string | null = null;
  continuedMessages(plan).forEach((m, i) => {
    const uuid = planUuid(plan, `qwen-record-${i}`);
    records.push(
      m.role === 'user'
        ? { uuid, parentUuid, ...base, timestamp: m.timestamp, type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text: m.text }] } }
        : { uuid, parentUuid, ...base, timestamp: m.timestamp, type: 'assistant', provenance: 'assistant_output', message: { role: 'model', parts: [{ text: m.text }] } },
    );
    parentUuid = uuid;
  });
  const last = records[records.length - 1]!.timestamp;
  records.push({
    uuid: planUuid(plan, 'qwen-title'),
    parentUuid,
    ...base,
    timestamp: last,
    type: 'system',
    subtype: 'custom_title',
    systemPayload: { customTitle: plan.title, titleSource: 'manual' },
  });
  return jsonl(records);
}

function qwenDir(env: WriterEnv): string {
  const dir = env.storeRoots[0];
  if (!dir) throw new Error('no Qwen Code store root');
  return dir;
}

export const qwenWriter: NativeWriter = {
  agent: 'qwen',
  testedVersion: TESTED,

  // Qwen Code's default coder models (qwen3-coder-plus and successors) take 1M tokens; an unknown
  // OpenAI-compatible model is taken to have 128k.
  contextWindow: (model) => (model === null || /^qwen3?-coder/.test(model) ? 1_000_000 : 131_072),

  async check(env: WriterEnv): Promise<WriterCheck> {
    // A running qwen holds leases on its own session files only; a new file takes none of them.
    return installedWithStore(env, 'qwen', 'Qwen Code', env.storeRoots[0]);
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const sessionId = planUuid(plan, 'qwen-session');
    const rel = path.join('projects', qwenProjectFolder(plan.cwd, env.environment.platform), 'chats', `${sessionId}.jsonl`);
    const stagedStore = path.join(stagingRoot, 'qwen', '.qwen');
    const file = stageFile(stagedStore, rel, path.join(qwenDir(env), rel), qwenTranscript(plan, sessionId));
    return { nativeId: sessionId, files: [file], readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['qwen', '--resume', staged.nativeId], undo, warnings: [] };
  },
};
