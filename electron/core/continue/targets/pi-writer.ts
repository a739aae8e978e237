/**
 * Continue natively in pi (tested 0.73.1): a new v3 session file — the `session` header, then
 * `message` entries chained by `id`/`parentId`, a `session_info` name — under
 * `<PI_CODING_AGENT_DIR or ~/.pi/agent>/sessions/--<cwd>--/` (flat in PI_CODING_AGENT_SESSION_DIR).
 * Assistant entries carry the full `usage` object pi's footer reads (zeros: no tokens were spent
 * here) and the user's default provider/model from pi's settings. Resumed with `pi --session <path>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { continuedMessages, jsonl, planHex, planUuid } from './continued-turns.js';
import { placeFiles, stageFile } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

/** pi's `getDefaultSessionDir` folder name for a cwd. */
export function piSessionFolder(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** `2026-11-24T17-51-07-568Z_<id>.jsonl`, as pi names its files. */
export function piFileName(createdAt: string, sessionId: string): string {
  return `${new Date(createdAt).toISOString().replace(/[:.]/g, '-')}_${sessionId}.jsonl`;
}

export interface PiModel {
  provider: string;
  model: string;
}

/** The user's default provider/model (`settings.json` in pi's agent dir); pi falls back by itself when absent. */
export function piDefaultModel(agentDir: string): PiModel {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(agentDir, 'settings.json'), 'utf8')) as { defaultProvider?: unknown; defaultModel?: unknown };
    if (typeof s.defaultProvider === 'string' && typeof s.defaultModel === 'string') return { provider: s.defaultProvider, model: s.defaultModel };
  } catch {
    /* no settings */
  }
  return { provider: 'baton', model: 'continued' };
}

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export function piSessionLines(plan: ContinuationPlan, sessionId: string, model: PiModel): string {
  const messages = continuedMessages(plan);
  const records: unknown[] = [{ type: 'session', version: 3, id: sessionId, timestamp: messages[0]!.timestamp, cwd: plan.cwd }];
  let parentId: string | null = null;
  messages.forEach((m, i) => {
    const id = planHex(plan, `pi-entry-${i}`, 8);
    const message =
      m.role === 'user'
        ? { role: 'user', content: [{ type: 'text', text: m.text }], timestamp: m.ms }
        : { role: 'assistant', content: [{ type: 'text', text: m.text }], api: 'anthropic-messages', provider: model.provider, model: model.model, usage: ZERO_USAGE, stopReason: 'stop', timestamp: m.ms };
    records.push({ type: 'message', id, parentId, timestamp: m.timestamp, message });
    parentId = id;
  });
  records.push({ type: 'session_info', id: planHex(plan, 'pi-name', 8), parentId, timestamp: messages[messages.length - 1]!.timestamp, name: plan.title });
  return jsonl(records);
}

function sessionsDir(env: WriterEnv): { dir: string; flat: boolean } {
  const dir = env.storeRoots[0];
  if (!dir) throw new Error('no pi session store root');
  return { dir, flat: Boolean(env.environment.env.PI_CODING_AGENT_SESSION_DIR) };
}

function agentDir(env: WriterEnv): string {
  const e = env.environment.env;
  return e.PI_CODING_AGENT_DIR || path.join(env.environment.home, '.pi', 'agent');
}

export const piWriter: NativeWriter = {
  agent: 'pi',
  testedVersion: '0.73.1',

  // pi resumes with the user's default model; Claude-class models (its usual default) take 200k.
  contextWindow: () => 200_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    // pi keeps no lock or index: a new file is invisible to a running pi until it lists sessions.
    const { flat, dir } = sessionsDir(env);
    return installedWithStore(env, 'pi', 'pi', flat ? dir : agentDir(env));
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const sessionId = planUuid(plan, 'pi-session');
    const { dir, flat } = sessionsDir(env);
    const rel = flat ? piFileName(plan.createdAt, sessionId) : path.join(piSessionFolder(plan.cwd), piFileName(plan.createdAt, sessionId));
    const stagedStore = path.join(stagingRoot, 'pi', 'sessions');
    const file = stageFile(stagedStore, rel, path.join(dir, rel), piSessionLines(plan, sessionId, piDefaultModel(agentDir(env))));
    return { nativeId: sessionId, files: [file], readBackRoots: [stagedStore] };
  },

  async commit(staged): Promise<CommitResult> {
    const undo = placeFiles(staged.files);
    const file = staged.files[0]!.finalPath;
    return { nativeId: staged.nativeId, resume: ['pi', '--session', file], undo, warnings: [] };
  },
};
