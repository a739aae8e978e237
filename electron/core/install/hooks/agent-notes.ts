/**
 * What an installed hook still needs from the user, per agent, read from the agent's own files:
 * Codex runs a new hook only once the user trusted it in its `/hooks` review (and only while the
 * `hooks` feature — old name `codex_hooks` — is not switched off); Hermes asks once per hook
 * command unless it is in its allow-list or hooks are auto-accepted; Gemini CLI and Qwen Code run
 * them unless switched off in their settings.json, and so does Letta Code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parseYamlDocument } from '../config/yaml-parse.js';
import type { AgentId } from '../../../../shared/model.js';
import type { Environment } from '../../paths.js';
import type { WantedHook } from './json-hooks.js';

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

export function codexNotes(environment: Environment, installed: boolean): string[] {
  const file = path.join(environment.env.CODEX_HOME || path.join(environment.home, '.codex'), 'config.toml');
  const notes: string[] = [];
  let features: Record<string, unknown> = {};
  let trusted = false;
  const text = read(file);
  if (text !== null) {
    try {
      const config = parseToml(text) as Record<string, unknown>;
      features = (config.features as Record<string, unknown>) ?? {};
      const state = (config.hooks as { state?: Record<string, { trusted_hash?: unknown }> } | undefined)?.state ?? {};
      trusted = Object.entries(state).some(([key, v]) => key.includes('hooks.json') && typeof v?.trusted_hash === 'string');
    } catch {
      notes.push(`${file} is not valid TOML; Codex will not start until it is fixed.`);
    }
  }
  if (features.hooks === false || features.codex_hooks === false) {
    notes.push(`Codex hooks are switched off in ${file} ([features] ${features.hooks === false ? 'hooks' : 'codex_hooks'} = false): set it to true (Codex 0.169 has them on by default; older versions need \`codex_hooks = true\`).`);
  }
  if (installed && !trusted) notes.push('Installed, needs your approval in Codex: start `codex`, open /hooks and trust Baton\'s hooks (Codex skips hooks it has not been told to trust).');
  return notes;
}

export function hermesNotes(environment: Environment, wanted: WantedHook[], installed: boolean): string[] {
  const home = environment.env.HERMES_HOME || path.join(environment.home, '.hermes');
  const config = read(path.join(home, 'config.yaml'));
  const autoAccept = config !== null && parseYamlDocument(config).toJS()?.hooks_auto_accept === true;
  let approvals: { event?: unknown; command?: unknown }[] = [];
  try {
    approvals = (JSON.parse(read(path.join(home, 'shell-hooks-allowlist.json')) ?? '{}') as { approvals?: typeof approvals }).approvals ?? [];
  } catch {
    approvals = [];
  }
  const approved = wanted.every((w) => approvals.some((a) => a.event === w.event && a.command === w.command));
  if (!installed || autoAccept || approved) return [];
  return ['Installed, needs your approval in Hermes: it asks once per hook the first time it runs (start `hermes` in a terminal, or once `hermes --accept-hooks`).'];
}

/** Claude Code reads settings.json as strict JSON: with a comment or trailing comma in it, no hook runs. */
export function claudeNotes(file: string): string[] {
  const text = read(file);
  if (text === null || text.trim() === '') return [];
  try {
    JSON.parse(text);
    return [];
  } catch {
    return [`${file} has comments or trailing commas: Claude Code reads it as strict JSON and ignores it (no hook runs) until they are removed.`];
  }
}

/** A settings.json read leniently (Gemini CLI and Qwen Code accept comments); {} when absent or unreadable. */
function settingsOf(file: string): Record<string, unknown> {
  const text = read(file);
  if (text === null) return {};
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0 && value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Gemini CLI 0.61 runs hooks unless `hooksConfig.enabled` is false or the hook is in `hooksConfig.disabled`. */
export function geminiNotes(file: string): string[] {
  const config = (settingsOf(file).hooksConfig ?? {}) as { enabled?: unknown; disabled?: unknown };
  const notes: string[] = [];
  if (config.enabled === false) notes.push(`Gemini CLI hooks are switched off in ${file} ("hooksConfig": {"enabled": false}): set it to true, or no Baton hook runs.`);
  if (Array.isArray(config.disabled) && config.disabled.length > 0) notes.push(`${file} disables some hooks by name ("hooksConfig.disabled"): check that Baton's are not among them (\`/hooks panel\` in Gemini CLI).`);
  return notes;
}

/** Qwen Code 0.24 runs hooks unless `disableAllHooks` is true (or it was started with --safe-mode / --bare). */
export function qwenNotes(file: string): string[] {
  return settingsOf(file).disableAllHooks === true ? [`Qwen Code hooks are switched off in ${file} ("disableAllHooks": true): remove it, or no Baton hook runs.`] : [];
}

/** Letta Code 0.32 runs hooks unless `hooks.disabled` is true in its settings.json (a project's own settings may switch them off too). */
export function lettaNotes(file: string): string[] {
  const hooks = settingsOf(file).hooks as { disabled?: unknown } | undefined;
  return hooks?.disabled === true ? [`Letta Code hooks are switched off in ${file} ("hooks": {"disabled": true}): remove it, or no Baton hook runs.`] : [];
}

export function agentHookNotes(agent: AgentId, environment: Environment, wanted: WantedHook[], installed: boolean, file: string): string[] {
  if (agent === 'claude') return claudeNotes(file);
  if (agent === 'codex') return codexNotes(environment, installed);
  if (agent === 'hermes') return hermesNotes(environment, wanted, installed);
  if (agent === 'gemini') return geminiNotes(file);
  if (agent === 'qwen') return qwenNotes(file);
  if (agent === 'letta') return lettaNotes(file);
  return [];
}
