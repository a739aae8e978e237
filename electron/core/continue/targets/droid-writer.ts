/**
 * Continue natively in Factory Droid (tested 0.225.2): a new session file
 * `~/.factory/sessions/<cwd with "/" → "-">/<id>.jsonl` (under FACTORY_HOME_OVERRIDE when set) of
 * Droid's own lines — `session_start` with the cwd and the title, then `message` lines chained by
 * `id`/`parentId` with Anthropic-style text blocks. No `<id>.settings.json`: Droid writes that
 * sidecar itself on the first resume and takes the user's default model meanwhile. Resumed with
 * `droid --resume <id>` (interactive) or `droid exec -s <id> "<prompt>"`.
 */
import os from 'node:os';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planUuid } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

/** Droid's session folder for a cwd: every path separator becomes "-". */
export function droidSessionFolder(cwd: string): string {
  return cwd.replace(/[/\\]/g, '-');
}

export function droidSessionLines(plan: ContinuationPlan, sessionId: string, owner: string): string {
  const records: unknown[] = [{ type: 'session_start', id: sessionId, title: plan.title, owner, version: 2, cwd: plan.cwd, isSessionTitleManuallySet: true }];
  let parentId: string | null = null;
  continuedMessages(plan).forEach((m, i) => {
    const id = planUuid(plan, `droid-message-${i}`);
    records.push({ type: 'message', id, ...(parentId ? { parentId } : {}), timestamp: m.timestamp, message: { role: m.role, content: [{ type: 'text', text: m.text }] } });
    parentId = id;
  });
  return jsonl(records);
}

function factoryRoot(env: WriterEnv): string {
  const dir = env.storeRoots[0];
  if (!dir) throw new Error('no Factory Droid store root');
  return dir;
}

function owner(env: WriterEnv): string {
  return env.environment.env.USER || env.environment.env.USERNAME || path.basename(env.environment.home) || os.userInfo().username;
}

export const droidWriter: NativeWriter = {
  agent: 'droid',
  testedVersion: '0.225.2',

  // Droid resumes with the session's or the user's default model; its usual models take 200k or more.
  contextWindow: () => 200_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    // A running droid appends only to its own session file; a new file is one it has not opened.
    return installedWithStore(env, 'droid', 'Factory Droid', factoryRoot(env));
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const sessionId = planUuid(plan, 'droid-session');
    const rel = path.join('sessions', droidSessionFolder(plan.cwd), `${sessionId}.jsonl`);
    const stagedStore = path.join(stagingRoot, 'droid', '.factory');
    const file = stageFile(stagedStore, rel, path.join(factoryRoot(env), rel), droidSessionLines(plan, sessionId, owner(env)));
    return { nativeId: sessionId, files: [file], readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['droid', '--resume', staged.nativeId], undo, warnings: [] };
  },
};
