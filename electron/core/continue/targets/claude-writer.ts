/**
 * Claude Code target: a new transcript `<config dir>/projects/<encoded cwd>/<session id>.jsonl`
 * (claude-lines.ts), resumed with `claude --resume <id>` from that cwd. Claude Code keeps no index
 * beside the transcripts, so the file is all there is to write and to undo.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NativeWriter, WriterEnv } from '../native-writer.js';
import { claudeProjectDir, claudeSessionId, claudeTranscript } from './claude-lines.js';
import { cliVersion, findOnPath, placeFiles, stageFile } from '../writer-support.js';

export const CLAUDE_TESTED_VERSION = '2.1.330';
const DEFAULT_MODEL = 'claude-sonnet-4-5';

/** The config dir Claude Code itself uses: the first store root that exists. */
export function claudeConfigDir(env: WriterEnv): string | null {
  return env.storeRoots.find((root) => fs.existsSync(root) && fs.statSync(root).isDirectory()) ?? null;
}

/** The model the user's Claude Code runs (its settings.json), for the assistant lines' envelope. */
function claudeModel(configDir: string): string {
  try {
    const settings = JSON.parse(fs.readFileSync(path.join(configDir, 'settings.json'), 'utf8')) as { model?: unknown; env?: { ANTHROPIC_MODEL?: unknown } };
    const model = settings.env?.ANTHROPIC_MODEL ?? settings.model;
    if (typeof model === 'string' && model.trim()) return model.trim();
  } catch {
    /* no settings, or not JSON: the default model */
  }
  return DEFAULT_MODEL;
}

export const claudeWriter: NativeWriter = {
  agent: 'claude',
  testedVersion: CLAUDE_TESTED_VERSION,
  contextWindow: () => 200_000,
  async check(env) {
    const bin = findOnPath('claude', env.environment);
    if (!bin) return { ok: false, reason: 'not_installed', message: 'Claude Code is not installed here (no `claude` on PATH).' };
    if (!claudeConfigDir(env)) return { ok: false, reason: 'store_missing', message: `Claude Code's store is missing (looked in ${env.storeRoots.join(', ')}); run \`claude\` once first.` };
    return { ok: true, version: cliVersion(bin, env.environment) };
  },
  async stage(plan, env, stagingRoot) {
    const configDir = claudeConfigDir(env);
    if (!configDir) throw new Error("Claude Code's store is missing.");
    const nativeId = claudeSessionId(plan);
    const project = claudeProjectDir(plan.cwd);
    const relative = path.join('projects', project, `${nativeId}.jsonl`);
    const file = stageFile(path.join(stagingRoot, 'claude'), relative, path.join(configDir, relative), claudeTranscript(plan, nativeId, claudeModel(configDir)));
    return { nativeId, files: [file], readBackRoots: [path.join(stagingRoot, 'claude')] };
  },
  async commit(staged) {
    const undo = placeFiles(staged.files);
    return { nativeId: staged.nativeId, resume: ['claude', '--resume', staged.nativeId], undo, warnings: [] };
  },
};
