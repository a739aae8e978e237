/**
 * One install or uninstall of Baton's entry in one config file, the same for every agent and for
 * both `baton mcp` and `baton hooks`: read through symlinks (config-file.ts), refuse what cannot be
 * edited safely before writing anything, back up privately, write in the file's own layout, and
 * remember the original bytes (install-record.ts). Uninstall gives the original bytes back when the
 * file holds exactly what Baton wrote; after the user's own edits it removes only Baton's entry and
 * the containers Baton's entry brought, and deletes Baton's backups that hold a secret.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import {
  assertWritable,
  backupConfig,
  ConfigChangedError,
  decodeConfig,
  encodeConfig,
  readConfigFile,
  removeConfigFile,
  writeConfigBytes,
  modeFor,
  type ConfigFile,
} from './config-file.js';
import { backupsOf } from './backups.js';
import { ConfigEditError } from './config-edit-error.js';
import { withConfigLock } from './config-lock.js';
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
  /** Folders to create with the install when missing (recorded; removed at uninstall when empty). */
  companionDirs?: string[];
  /**
   * Whether the text left once Baton's entry is out means "no file" (a whole file that is Baton's,
   * like the pi extension); by default only an empty file Baton created goes.
   */
  wholeFile?: boolean;
  /** Hold `<file>.lock` while changing the file (the lock a running Claude Code takes: config-lock.ts). */
  lock?: boolean;
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

/** How often a change is redone when another program rewrote the file meanwhile (~1 s in all). */
const ATTEMPTS = 25;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads, edits and writes; when the file changed between the read and the write (a running agent
 * rewrote it), the whole change is redone from a fresh read, so neither side's change is lost.
 */
export function changeConfig(request: ConfigChangeRequest): ConfigChangeOutcome {
  for (let attempt = 1; ; attempt++) {
    try {
      return request.lock && !request.dryRun ? withConfigLock(request.file, () => changeOnce(request)) : changeOnce(request);
    } catch (err) {
      if (err instanceof ConfigEditError) return failure(request.file, err);
      if (!(err instanceof ConfigChangedError)) throw err;
      if (attempt >= ATTEMPTS) return { ...failure(request.file, err), error: err.message };
      pause(5 + Math.random() * 35);
    }
  }
}

function changeOnce(request: ConfigChangeRequest): ConfigChangeOutcome {
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
    if (err instanceof ConfigChangedError) throw err;
    return failure(file, err);
  }
}

/** Runs a write; a backup made for it goes again when the write found the file changed (it is redone). */
function writeWithBackup(backup: string | null, write: () => void): void {
  try {
    write();
  } catch (err) {
    if (backup && err instanceof ConfigChangedError) fs.rmSync(backup, { force: true });
    throw err;
  }
}

/** The folders `mkdir -p` would create for `dirs`, outermost first. */
function missingDirs(dirs: string[]): string[] {
  const missing: string[] = [];
  for (const dir of dirs) {
    const chain: string[] = [];
    for (let d = path.resolve(dir); !fs.existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) chain.unshift(d);
    missing.push(...chain.filter((d) => !missing.includes(d)));
  }
  return missing;
}

/** Folders Baton created, deepest first, removed when empty (anything someone put there keeps them). */
function removeEmptyDirs(dirs: string[]): void {
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // not empty, or gone: not Baton's to remove
    }
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
  const dirs = missingDirs([path.dirname(config.target), ...(request.companionDirs ?? [])]);
  writeWithBackup(backup, () => writeConfigBytes(config, bytes, modeFor(config, holdsSecret)));
  for (const dir of request.companionDirs ?? []) fs.mkdirSync(dir, { recursive: true });
  const created = editor.plain && editor.containers ? createdContainers(config.bytes ? editor.plain(config.text) : {}, editor.plain(after), editor.containers(after)) : [];
  const before = { bytes: config.bytes, mode: config.stat?.mode ?? null, hasEntry: config.bytes !== null && editor.has(config.text) };
  request.records.set(recordKey, recordAfterInstall(request.records.get(recordKey), before, bytes, created, dirs));
  return { file, kind: config.bytes ? 'written' : 'created', ok: true, diff, backup };
}

function uninstall(request: ConfigChangeRequest, config: ConfigFile, recordKey: string): ConfigChangeOutcome {
  const { file, editor } = request;
  const record = request.records.get(recordKey);
  if (!config.bytes) {
    if (!request.dryRun) {
      removeEmptyDirs(record?.dirs ?? []);
      request.records.set(recordKey, undefined);
    }
    return { file, kind: 'unchanged', ok: true, diff: '', backup: null };
  }
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
    // A file Baton created (or one that is wholly Baton's) and that now holds nothing goes.
    const gone = (request.wholeFile || record === undefined || record.original === null) && text.trim() === '';
    afterText = gone ? null : text;
    afterBytes = gone ? null : encodeConfig(text, config.layout, config.text, file);
  }
  assertWritable(config);
  const diff = patch(file, config.text, afterText);
  const kind: ConfigChangeKind = afterBytes === null ? 'deleted' : original ? 'restored' : 'written';
  if (request.dryRun) return { file, kind, ok: true, diff, backup: null };
  // A backup of a file that holds the secret would keep it after the uninstall: none is made then;
  // nor when the bytes are all Baton's (a file Baton created goes; exactly what Baton wrote is given back).
  const skipBackup = (request.secret && config.text.includes(request.secret)) || afterBytes === null || original !== undefined;
  const backup = skipBackup ? null : backupConfig(config, request.now?.() ?? new Date());
  writeWithBackup(backup, () => {
    if (afterBytes === null) removeConfigFile(config);
    else if (original) writeConfigBytes(config, afterBytes, original.mode ?? config.stat!.mode);
    else writeConfigBytes(config, afterBytes, modeFor(config, request.secret !== undefined && (afterText ?? '').includes(request.secret)));
  });
  removeEmptyDirs(record?.dirs ?? []);
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
