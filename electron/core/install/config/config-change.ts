/**
 * One install or uninstall of Baton's entry in one config file, the same for every agent and for
 * both `baton mcp` and `baton hooks`: read through symlinks (config-file.ts), refuse what cannot be
 * edited safely before writing anything, back up privately, write in the file's own layout, and
 * remember the original bytes (install-record.ts). Uninstall gives the original bytes back when the
 * file holds exactly what Baton wrote; after the user's own edits it removes only Baton's entry and
 * the containers Baton's entry brought, and deletes Baton's backups that hold a secret.
 */
import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import {
  assertWritable,
  backupConfig,
  decodeConfig,
  encodeConfig,
  readConfigFile,
  writeConfigBytes,
  modeFor,
  type ConfigFile,
} from './config-file.js';
import { backupsOf } from './backups.js';
import { ConfigEditError } from './config-edit-error.js';
import { createdContainers, originalIfUntouched, recordAfterInstall, type ContainerPath, type InstallRecords } from './install-record.js';

export interface ConfigEditor {
  add(text: string): string;
  remove(text: string): string;
  /** Whether Baton's entry is in the text. */
  has(text: string): boolean;
  /** Parsed data (for finding the containers Baton's entry created). */
  plain?(text: string): unknown;
  /** Containers Baton's entry may create in `text`, deepest first. */
  containers?(text: string): ContainerPath[];
  /** The container at `at` removed when it is empty (or null); the text unchanged otherwise. */
  removeEmpty?(text: string, at: ContainerPath): string;
  /** Whether Baton's entry in `text` carries a secret (any token, also an older one). */
  entryHoldsSecret?(text: string): boolean;
}

export interface ConfigChangeRequest {
  file: string;
  action: 'install' | 'uninstall';
  editor: ConfigEditor;
  records: InstallRecords;
  /** Distinguishes Baton's entries in one file (e.g. the MCP server name). */
  entry: string;
  /** A secret Baton's entry may hold: the file is kept 0600 while it does; backups holding it go at uninstall. */
  secret?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export type ConfigChangeKind = 'unchanged' | 'written' | 'created' | 'restored' | 'deleted';

export interface ConfigChangeOutcome {
  file: string;
  kind: ConfigChangeKind;
  ok: boolean;
  diff: string;
  backup: string | null;
  /** Why nothing was written (ok false). */
  error?: string;
  /** The mode was tightened to 0600 without another change. */
  tightened?: boolean;
  /** Backups deleted at uninstall because they held a secret. */
  removedBackups?: string[];
}

function failure(file: string, err: unknown): ConfigChangeOutcome {
  const error = err instanceof ConfigEditError ? err.message : `Could not update ${file}: ${(err as Error).message}`;
  return { file, kind: 'unchanged', ok: false, diff: '', backup: null, error };
}

function patch(file: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(before === null ? '/dev/null' : file, after === null ? '/dev/null' : file, before ?? '', after ?? '', undefined, undefined, { context: 3 });
}

/** The tightening README "MCP endpoint" documents: a file holding the token is readable by its owner only. */
function tightenIfSecret(config: ConfigFile, secret: string | undefined): boolean {
  if (process.platform === 'win32' || !secret || !config.stat || !config.text.includes(secret)) return false;
  if ((config.stat.mode & 0o077) === 0) return false;
  fs.chmodSync(config.target, config.stat.mode & 0o7700);
  return true;
}

export function changeConfig(request: ConfigChangeRequest): ConfigChangeOutcome {
  const { file, action } = request;
  const key = `${request.entry}@`;
  let config: ConfigFile;
  try {
    config = readConfigFile(file);
  } catch (err) {
    return failure(file, err);
  }
  const recordKey = key + config.target;
  try {
    if (action === 'install') return install(request, config, recordKey);
    return uninstall(request, config, recordKey);
  } catch (err) {
    return failure(file, err);
  }
}

function install(request: ConfigChangeRequest, config: ConfigFile, recordKey: string): ConfigChangeOutcome {
  const { file, editor } = request;
  const after = editor.add(config.text);
  if (config.bytes && after === config.text) {
    const tightened = !request.dryRun && tightenIfSecret(config, request.secret);
    return { file, kind: 'unchanged', ok: true, diff: '', backup: null, tightened };
  }
  assertWritable(config);
  const bytes = encodeConfig(after, config.layout, config.text, file);
  const diff = patch(file, config.bytes ? config.text : null, after);
  if (request.dryRun) return { file, kind: config.bytes ? 'written' : 'created', ok: true, diff, backup: null };
  const backup = backupConfig(config, request.now?.() ?? new Date());
  const holdsSecret = request.secret !== undefined && after.includes(request.secret);
  writeConfigBytes(config, bytes, modeFor(config, holdsSecret));
  const created = editor.plain && editor.containers ? createdContainers(config.bytes ? editor.plain(config.text) : {}, editor.plain(after), editor.containers(after)) : [];
  const before = { bytes: config.bytes, mode: config.stat?.mode ?? null, hasEntry: config.bytes !== null && editor.has(config.text) };
  request.records.set(recordKey, recordAfterInstall(request.records.get(recordKey), before, bytes, created));
  return { file, kind: config.bytes ? 'written' : 'created', ok: true, diff, backup };
}

function uninstall(request: ConfigChangeRequest, config: ConfigFile, recordKey: string): ConfigChangeOutcome {
  const { file, editor } = request;
  if (!config.bytes) {
    if (!request.dryRun) request.records.set(recordKey, undefined);
    return { file, kind: 'unchanged', ok: true, diff: '', backup: null };
  }
  const record = request.records.get(recordKey);
  const original = editor.has(config.text) ? originalIfUntouched(record, config.bytes) : undefined;
  let afterBytes: Buffer | null;
  let afterText: string | null;
  if (original) {
    afterBytes = original.bytes;
    afterText = original.bytes ? decodeConfig(original.bytes).text : null;
  } else {
    let text = editor.remove(config.text);
    if (text === config.text) {
      if (!request.dryRun) request.records.set(recordKey, undefined);
      return { file, kind: 'unchanged', ok: true, diff: '', backup: null };
    }
    // The containers Baton's entry brought; with no record (an install by an older Baton), those
    // Baton's removal leaves empty. Deepest first: `mcp.servers` before `mcp`, `hooks.Stop` before `hooks`.
    const created = [...(record ? record.created : (editor.containers?.(config.text) ?? []))].sort((a, b) => b.length - a.length);
    for (const at of created) text = editor.removeEmpty ? editor.removeEmpty(text, at) : text;
    // A file Baton created and that now holds nothing goes.
    const gone = (record === undefined || record.original === null) && text.trim() === '';
    afterText = gone ? null : text;
    afterBytes = gone ? null : encodeConfig(text, config.layout, config.text, file);
  }
  assertWritable(config);
  const diff = patch(file, config.text, afterText);
  const kind: ConfigChangeKind = afterBytes === null ? 'deleted' : original ? 'restored' : 'written';
  if (request.dryRun) return { file, kind, ok: true, diff, backup: null };
  // A backup of a file that holds the secret would keep it after the uninstall: none is made then.
  const backup = request.secret && config.text.includes(request.secret) ? null : backupConfig(config, request.now?.() ?? new Date());
  if (afterBytes === null) fs.rmSync(config.target);
  else if (original) writeConfigBytes(config, afterBytes, original.mode ?? config.stat!.mode);
  else writeConfigBytes(config, afterBytes, modeFor(config, request.secret !== undefined && (afterText ?? '').includes(request.secret)));
  request.records.set(recordKey, undefined);
  return { file, kind, ok: true, diff, backup, removedBackups: removeSecretBackups(file, editor, request.secret) };
}

/** Baton's backups of `file` that hold the secret, or an entry of Baton's with an older one, are deleted. */
function removeSecretBackups(file: string, editor: ConfigEditor, secret: string | undefined): string[] {
  const removed: string[] = [];
  for (const backup of backupsOf(file)) {
    let text: string;
    try {
      text = decodeConfig(fs.readFileSync(backup)).text;
    } catch {
      continue;
    }
    let holds = secret !== undefined && text.includes(secret);
    if (!holds && secret !== undefined) {
      try {
        holds = editor.entryHoldsSecret?.(text) ?? false;
      } catch {
        // a backup Baton cannot parse is the user's business
      }
    }
    if (holds) {
      fs.rmSync(backup, { force: true });
      removed.push(backup);
    }
  }
  return removed;
}
