/**
 * Continue natively in Gemini CLI (tested 0.61.0): a new chat file
 * `<GEMINI_CLI_HOME or ~>/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl` in the
 * JSONL format the CLI writes (a header with `sessionId` + `projectHash`, a `$set.summary` title,
 * `user`/`gemini` message records with string ids), the slug taken from `projects.json` or claimed
 * there the way the CLI claims it. Resumed with `gemini --resume <sessionId>` in the project folder.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planUuid } from './continued-turns.js';
import { registerProject, registryLocked, resolveSlug } from './gemini-projects.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { installedWithStore } from './writer-checks.js';

function geminiDir(env: WriterEnv): string {
  const dir = env.storeRoots[0];
  if (!dir) throw new Error('no Gemini CLI store root');
  return dir;
}

/** `session-2026-11-24T17-48-6e2e2325.jsonl`: the UTC minute of creation and the id's first 8 characters. */
export function geminiChatFileName(createdAt: string, sessionId: string): string {
  const minute = new Date(createdAt).toISOString().slice(0, 16).replace(':', '-');
  return `session-${minute}-${sessionId.slice(0, 8)}.jsonl`;
}

export function geminiChatLines(plan: ContinuationPlan, sessionId: string): string {
  const messages = continuedMessages(plan);
  const last = messages[messages.length - 1]!.timestamp;
  const records: unknown[] = [
    {
      sessionId,
      projectHash: createHash('sha256').update(plan.cwd).digest('hex'),
      startTime: messages[0]!.timestamp,
      lastUpdated: last,
      kind: 'main',
    },
    { $set: { summary: plan.title } },
  ];
  messages.forEach((m, i) => {
    const id = planUuid(plan, `gemini-message-${i}`);
    records.push(
      m.role === 'user'
        ? { id, timestamp: m.timestamp, type: 'user', content: [{ text: m.text }] }
        : { id, timestamp: m.timestamp, type: 'gemini', content: m.text },
    );
  });
  records.push({ $set: { lastUpdated: last } });
  return jsonl(records);
}

export const geminiWriter: NativeWriter = {
  agent: 'gemini',
  testedVersion: '0.61.0',

  // Gemini CLI's default ("auto") routes to Gemini 2.5/3 models, all 1M-token windows.
  contextWindow: () => 1_048_576,

  async check(env: WriterEnv): Promise<WriterCheck> {
    const found = installedWithStore(env, 'gemini', 'Gemini CLI', env.storeRoots[0]);
    if (found.ok && registryLocked(geminiDir(env))) {
      return { ok: false, reason: 'locked', message: `Gemini CLI's project registry ${path.join(geminiDir(env), 'projects.json.lock')} is held by a running gemini` };
    }
    return found;
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const dir = geminiDir(env);
    const { slug, registered } = resolveSlug(dir, plan.cwd);
    const sessionId = planUuid(plan, 'gemini-session');
    const rel = path.join('tmp', slug, 'chats', geminiChatFileName(plan.createdAt, sessionId));
    const stagedStore = path.join(stagingRoot, 'gemini', '.gemini');
    // The staging copy carries the project marker so Baton's reader finds the session's folder.
    writeFileAtomic(path.join(stagedStore, 'tmp', slug, '.project_root'), plan.cwd);
    const file = stageFile(stagedStore, rel, path.join(dir, rel), geminiChatLines(plan, sessionId));
    return { nativeId: sessionId, files: [file], readBackRoots: [stagedStore], extra: { slug, registered } };
  },

  async commit(staged, plan, env): Promise<CommitResult> {
    const dir = geminiDir(env);
    const slug = String(staged.extra?.slug);
    const warnings: string[] = [];
    if (staged.extra?.registered !== true) {
      const created = registerProject(dir, plan.cwd, slug);
      // Gemini itself registers every folder it runs in, so the entry stays after an undo.
      if (created.length) warnings.push(`registered ${plan.cwd} as Gemini CLI project "${slug}" (kept on undo, as gemini would keep it): ${created.join(', ')}`);
    }
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['gemini', '--resume', staged.nativeId], undo, warnings };
  },
};
