/**
 * Continue natively in Continue cn (tested 1.5.47): a new session document
 * `<CONTINUE_GLOBAL_DIR or ~/.continue>/sessions/<uuid>.json` as cn's HistoryManager writes it
 * (`sessionId, title, workspaceDirectory, history, usage`, two-space JSON; a user item carries its
 * text again as `editorState`), and its entry in `sessions.json`, which `cn ls` lists. cn resumes by
 * `cn --resume`: the most recently saved document (by mtime), which the new one is when written;
 * `cn --fork <id>` would copy it into another session instead, so Baton names `--resume`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, planUuid } from './continued-turns.js';
import { addCnIndexEntry, parseCnIndex, type CnIndexEntry } from './continue-sessions-index.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

function continueHome(env: WriterEnv): string {
  const root = env.storeRoots[0];
  if (!root) throw new Error('no Continue cn store root');
  // A root may name the sessions folder itself (as a user may type it in Settings).
  return path.basename(root) === 'sessions' ? path.dirname(root) : root;
}

const ZERO_USAGE = { totalCost: 0, promptTokens: 0, completionTokens: 0, promptTokensDetails: { cachedTokens: 0, cacheWriteTokens: 0 } };

export function cnSessionDocument(plan: ContinuationPlan, sessionId: string): string {
  const history = continuedMessages(plan).map((m) =>
    m.role === 'user' ? { message: { role: 'user', content: m.text }, contextItems: [], editorState: m.text } : { message: { role: 'assistant', content: m.text }, contextItems: [] },
  );
  return JSON.stringify({ sessionId, title: plan.title, workspaceDirectory: plan.cwd, history, usage: ZERO_USAGE }, undefined, 2);
}

export function cnIndexEntry(plan: ContinuationPlan, sessionId: string): CnIndexEntry {
  const messages = continuedMessages(plan);
  return {
    sessionId,
    title: plan.title,
    dateCreated: String(messages[0]!.ms),
    workspaceDirectory: plan.cwd,
    messageCount: messages.filter((m) => m.role === 'assistant').length,
  };
}

const indexFile = (home: string) => path.join(home, 'sessions', 'sessions.json');

export const continueWriter: NativeWriter = {
  agent: 'continue',
  testedVersion: '1.5.47',

  // cn resumes with the model its config.yaml names; Claude-class and GPT-4.1-class models take 200k or more.
  contextWindow: () => 200_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    const found = installedWithStore(env, 'cn', 'Continue cn', continueHome(env));
    if (!found.ok) return found;
    const file = indexFile(continueHome(env));
    try {
      parseCnIndex(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null, file);
    } catch (err) {
      return { ok: false, reason: 'unsupported', message: (err as Error).message };
    }
    return found;
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const home = continueHome(env);
    const sessionId = planUuid(plan, 'continue-session');
    const rel = path.join('sessions', `${sessionId}.json`);
    const stagedStore = path.join(stagingRoot, 'continue', '.continue');
    const file = stageFile(stagedStore, rel, path.join(home, rel), cnSessionDocument(plan, sessionId));
    // The staged copy's own index, so Baton's reader reads the session back with its start time.
    stageFile(stagedStore, path.join('sessions', 'sessions.json'), '', JSON.stringify([cnIndexEntry(plan, sessionId)], undefined, 2));
    return { nativeId: sessionId, files: [file], readBackRoots: [stagedStore] };
  },

  async commit(staged, plan, env): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    const file = staged.files[0]!.finalPath;
    // `cn --resume` takes the newest document: the same plan continued again makes this one the newest again.
    const now = new Date();
    fs.utimesSync(file, now, now);
    const index = indexFile(continueHome(env));
    try {
      const change = addCnIndexEntry(index, cnIndexEntry(plan, staged.nativeId));
      if (change) undo.push({ kind: 'cn-index-entry', path: index, sessionId: staged.nativeId, ...change });
    } catch (err) {
      for (const step of undo) if (step.kind === 'file') fs.rmSync(step.path, { force: true });
      throw err;
    }
    return {
      nativeId: staged.nativeId,
      resume: ['cn', '--resume'],
      undo,
      warnings: ['`cn --resume` opens the cn session saved last: this one until another cn session saves (`cn ls` lists it too).'],
    };
  },
};
