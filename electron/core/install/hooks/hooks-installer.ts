/**
 * `baton hooks install|uninstall|status` and the Settings buttons: Baton's hook entries in each
 * agent's own config, with the care of `baton mcp install` — real parsers, the user's format
 * kept, a backup before every write, only Baton's entries touched, idempotent. Uninstall puts
 * back the exact bytes from before the install when the file was not changed since Baton wrote
 * it (the original bytes and a hash of what Baton wrote live in `hooks-installed.json` in Baton's
 * data dir; see install/config/config-change.ts); after other edits it removes only Baton's entries
 * and the containers they brought.
 */
import fs from 'node:fs';
import { parseJsonConfig, removeEmptyJson } from '../config/edit-json.js';
import { removeEmptyYaml } from '../config/edit-yaml.js';
import { changeConfig } from '../config/config-change.js';
import { readConfigFile } from '../config/config-file.js';
import { InstallRecords } from '../config/install-record.js';
import { parseYamlConfig } from '../config/yaml-parse.js';
import { AGENT_LABELS, type AgentId } from '../../../../shared/model.js';
import type { AgentHooksStatus, HooksChangeResult } from '../../../../shared/api-types.js';
import { ApiError } from '../../../../shared/contract.js';
import type { Environment } from '../../paths.js';
import { hookCommand, type HookRuntime } from './hook-command.js';
import { HOOK_AGENTS, HOOK_TARGETS, type AgentHookTarget } from './hook-targets.js';
import { HOOKS_KEY, jsonHookContainers, readJsonHooks, removeJsonHooks, setJsonHooks, type WantedHook } from './json-hooks.js';
import { readYamlHooks, removeYamlHooks, setYamlHooks } from './yaml-hooks.js';
import { agentHookNotes } from './agent-notes.js';

export const INSTALL_RECORD_FILE = 'hooks-installed.json';

export interface HooksOptions {
  agent: AgentId | 'all';
  environment: Environment;
  runtime: HookRuntime;
  /** Baton's data dir (for the install record). */
  dataDir: string;
  dryRun?: boolean;
  now?: () => Date;
}

export function hookAgents(agent: AgentId | 'all'): AgentId[] {
  if (agent === 'all') return HOOK_AGENTS;
  if (!HOOK_TARGETS[agent]) throw new ApiError('bad_request', `${AGENT_LABELS[agent]} has no hook support in Baton; its integration is a plugin or extension (see the README).`);
  return [agent];
}

export function wantedHooks(target: AgentHookTarget, runtime: HookRuntime): WantedHook[] {
  return target.specs.map((s) => ({ event: s.event, command: hookCommand(runtime, s.baton, target.agent), timeout: s.timeout }));
}

/** One hook file format's edits; `at` is where a JSON file keeps its events (YAML ignores it). */
interface HookEdit {
  set(text: string, wanted: WantedHook[], file: string, at: string[]): string;
  remove(text: string, file: string, at: string[]): string;
  read(text: string, file: string, at: string[]): Map<string, string[]>;
  plain(text: string, file: string): unknown;
  removeEmpty(text: string, at: string[], file: string): string;
  containers(events: string[], at: string[]): string[][];
}

const edit: Record<AgentHookTarget['format'], HookEdit> = {
  json: { set: setJsonHooks, remove: removeJsonHooks, read: readJsonHooks, plain: (t, f) => parseJsonConfig(t, f), removeEmpty: removeEmptyJson, containers: jsonHookContainers },
  yaml: {
    set: (t, w, f) => setYamlHooks(t, w, f),
    remove: (t, f) => removeYamlHooks(t, f),
    read: (t, f) => readYamlHooks(t, f),
    plain: (t, f) => parseYamlConfig(t, f).toJS() as unknown,
    removeEmpty: removeEmptyYaml,
    containers: (events) => jsonHookContainers(events),
  },
};

function eventsAt(target: AgentHookTarget, file: string): string[] {
  return target.eventsAt?.(file) ?? HOOKS_KEY;
}

export function installHooks(options: HooksOptions): HooksChangeResult[] {
  return hookAgents(options.agent).map((agent) => change(HOOK_TARGETS[agent]!, options, 'install'));
}

export function uninstallHooks(options: HooksOptions): HooksChangeResult[] {
  return hookAgents(options.agent).map((agent) => change(HOOK_TARGETS[agent]!, options, 'uninstall'));
}

export function hooksStatus(options: Omit<HooksOptions, 'dryRun'>): AgentHooksStatus[] {
  return hookAgents(options.agent).map((agent) => {
    const target = HOOK_TARGETS[agent]!;
    const file = target.file(options.environment);
    const wanted = wantedHooks(target, options.runtime);
    let found = new Map<string, string[]>();
    const notes: string[] = [];
    try {
      const config = readConfigFile(file);
      if (config.bytes !== null) found = edit[target.format].read(config.text, file, eventsAt(target, file));
    } catch (err) {
      notes.push(err instanceof Error ? err.message : String(err));
    }
    const events = wanted.map((w) => ({
      event: w.event,
      installed: (found.get(w.event)?.length ?? 0) > 0,
      current: found.get(w.event)?.includes(w.command) ?? false,
    }));
    const installed = events.every((e) => e.current);
    if (events.some((e) => e.installed && !e.current)) notes.push(`Some entries point at another Baton (moved or reinstalled): run \`baton hooks install --agent ${agent}\`.`);
    notes.push(...agentHookNotes(agent, options.environment, wanted, installed, file), ...target.unsupported);
    return { agent, file, installed, events, notes };
  });
}

function change(target: AgentHookTarget, options: HooksOptions, action: 'install' | 'uninstall'): HooksChangeResult {
  const file = target.file(options.environment);
  const format = edit[target.format];
  const wanted = wantedHooks(target, options.runtime);
  const at = eventsAt(target, file);
  const outcome = changeConfig({
    file,
    action,
    editor: {
      add: (t) => format.set(t, wanted, file, at),
      remove: (t) => format.remove(t, file, at),
      has: (t) => format.read(t, file, at).size > 0,
      plain: (t) => format.plain(t, file),
      containers: (t) => format.containers([...wanted.map((w) => w.event), ...format.read(t, file, at).keys()], at),
      removeEmpty: (t, at) => format.removeEmpty(t, at, file),
    },
    records: new InstallRecords(options.dataDir, INSTALL_RECORD_FILE),
    entry: 'hooks',
    dryRun: options.dryRun,
    now: options.now,
  });
  const base = { agent: target.agent, file, backup: outcome.backup, changed: false, diff: outcome.diff };
  if (!outcome.ok) return { ...base, ok: false, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') {
    if (action === 'uninstall' && !fs.existsSync(file)) return { ...base, ok: true, message: `${file} does not exist; nothing to remove.` };
    return { ...base, ok: true, message: action === 'install' ? `${file} already has Baton's hooks; unchanged.` : `${file} has no Baton hooks; unchanged.` };
  }
  const events = target.specs.map((s) => s.event).join(', ');
  if (options.dryRun) return { ...base, ok: true, message: `Would ${action === 'install' ? `add Baton's ${events} hooks to` : `remove Baton's hooks from`} ${file} (dry run: nothing written).` };
  const done =
    action === 'install'
      ? `Installed Baton's hooks (${events}) in ${file}`
      : outcome.kind === 'deleted'
        ? `Removed ${file} (Baton had created it)`
        : outcome.kind === 'restored'
          ? `Removed Baton's hooks: ${file} holds its bytes from before the install again`
          : `Removed Baton's hooks from ${file}`;
  return { ...base, changed: true, ok: true, message: `${done}${outcome.backup ? `; backup at ${outcome.backup}` : ''}.` };
}
