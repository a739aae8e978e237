/**
 * `baton hooks install|uninstall|status` and the Settings buttons: Baton's hook entries in each
 * agent's own config, with the care of `baton mcp install` — real parsers, the user's format
 * kept, a backup before every write, only Baton's entries touched, idempotent. Uninstall puts
 * back the exact bytes from before the install when the file was not changed since Baton wrote
 * it (a record of what Baton wrote lives in `hooks-installed.json` in Baton's data dir); after
 * other edits it removes only Baton's entries.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { parseJsonConfig } from '../mcp/install/edit-json.js';
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import type { AgentHooksStatus, HooksChangeResult } from '../../../shared/api-types.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { ConfigEditError } from '../mcp/install/endpoint.js';
import { ApiError } from '../../../shared/contract.js';
import type { Environment } from '../paths.js';
import { hookCommand, type HookRuntime } from './hook-command.js';
import { HOOK_AGENTS, HOOK_TARGETS, type AgentHookTarget } from './hook-targets.js';
import { readJsonHooks, removeJsonHooks, setJsonHooks, type WantedHook } from './json-hooks.js';
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

interface InstallRecord {
  /** Whether the file existed before Baton first wrote it. */
  existed: boolean;
  backup: string | null;
  /** sha256 of what Baton wrote. */
  written: string;
}

export function hookAgents(agent: AgentId | 'all'): AgentId[] {
  if (agent === 'all') return HOOK_AGENTS;
  if (!HOOK_TARGETS[agent]) throw new ApiError('bad_request', `${AGENT_LABELS[agent]} has no hook support in Baton; its integration is a plugin or extension (see the README).`);
  return [agent];
}

export function wantedHooks(target: AgentHookTarget, runtime: HookRuntime): WantedHook[] {
  return target.specs.map((s) => ({ event: s.event, command: hookCommand(runtime, s.baton, target.agent), timeout: s.timeout }));
}

const edit = {
  json: { set: setJsonHooks, remove: removeJsonHooks, read: readJsonHooks, plain: (t: string, f: string): unknown => parseJsonConfig(t, f) },
  yaml: { set: setYamlHooks, remove: removeYamlHooks, read: readYamlHooks, plain: (t: string): unknown => parseDocument(t).toJS() },
};

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
      const text = readIfExists(file);
      if (text !== null) found = edit[target.format].read(text, file);
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
  const base = { agent: target.agent, file, backup: null, changed: false, diff: '' };
  const records = readRecords(options.dataDir);
  let before: string | null;
  let after: string | null;
  try {
    before = readIfExists(file);
    if (action === 'install') after = edit[target.format].set(before ?? '', wantedHooks(target, options.runtime), file);
    else if (before === null) return { ...base, ok: true, message: `${file} does not exist; nothing to remove.` };
    else {
      const record = records[file];
      // A backup someone deleted since cannot give the bytes back: remove only Baton's entries then.
      const untouched = record && sha256(before) === record.written && (!record.existed || (record.backup !== null && fs.existsSync(record.backup)));
      after = untouched ? (record.existed ? fs.readFileSync(record.backup!, 'utf8') : null) : edit[target.format].remove(before, file);
      // The backup is only trusted when it holds the same file minus Baton's entries.
      const e = edit[target.format];
      if (untouched && after !== null && !isDeepStrictEqual(e.plain(e.remove(before, file), file), e.plain(after, file))) after = e.remove(before, file);
    }
  } catch (err) {
    const message = err instanceof ConfigEditError ? err.message : `Could not update ${file}: ${(err as Error).message}`;
    return { ...base, ok: false, message };
  }
  if (after === before) {
    return { ...base, ok: true, message: action === 'install' ? `${file} already has Baton's hooks; unchanged.` : `${file} has no Baton hooks; unchanged.` };
  }
  const diff = createTwoFilesPatch(before === null ? '/dev/null' : file, after === null ? '/dev/null' : file, before ?? '', after ?? '', undefined, undefined, { context: 3 });
  const what = action === 'install' ? `add Baton's ${target.specs.map((s) => s.event).join(', ')} hooks to` : `remove Baton's hooks from`;
  if (options.dryRun) return { ...base, ok: true, diff, message: `Would ${what} ${file} (dry run: nothing written).` };

  let backup: string | null = null;
  try {
    if (before !== null) {
      backup = freeName(`${file}.bak-${stamp(options.now?.() ?? new Date())}`);
      fs.copyFileSync(file, backup, fs.constants.COPYFILE_EXCL);
    }
    if (after === null) fs.rmSync(file);
    else writeFileAtomic(file, after, before !== null ? fs.statSync(file).mode & 0o777 : 0o600);
  } catch (err) {
    return { ...base, backup, ok: false, diff, message: `Could not write ${file}: ${(err as Error).message}` };
  }
  if (action === 'install') {
    const previous = records[file];
    // Keep the first record while the file holds only what Baton wrote since: it knows the original bytes.
    const keep = previous && before !== null && sha256(before) === previous.written;
    records[file] = { existed: keep ? previous.existed : before !== null, backup: keep ? previous.backup : backup, written: sha256(after!) };
  } else delete records[file];
  writeRecords(options.dataDir, records);
  const done = action === 'install' ? `Installed Baton's hooks (${target.specs.map((s) => s.event).join(', ')}) in ${file}` : after === null ? `Removed ${file} (Baton had created it)` : `Removed Baton's hooks from ${file}`;
  return { ...base, changed: true, backup, ok: true, diff, message: `${done}${backup ? `; backup at ${backup}` : ''}.` };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readRecords(dataDir: string): Record<string, InstallRecord> {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, INSTALL_RECORD_FILE), 'utf8')) as Record<string, InstallRecord>;
  } catch {
    return {};
  }
}

function writeRecords(dataDir: string, records: Record<string, InstallRecord>): void {
  writeFileAtomic(path.join(dataDir, INSTALL_RECORD_FILE), `${JSON.stringify(records, null, 2)}\n`, 0o600);
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function freeName(wanted: string): string {
  let name = wanted;
  for (let i = 1; fs.existsSync(name); i++) name = `${wanted}-${i}`;
  return name;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
