/**
 * Reading and writing an agent's config file without changing a byte Baton did not mean to:
 * a symlinked config (dotfile managers) is edited where the link points and the link stays; the
 * editors see LF text without a BOM and the file gets its CRLFs and BOM back; a file that is not
 * UTF-8 is edited as Latin-1 (one char per byte, so every byte Baton does not touch survives); the
 * owner and mode stay (a file holding Baton's token is made 0600, as documented). A file Baton cannot
 * write safely — read-only, not a regular file — is refused with the reason before anything is written.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeBackup } from './backups.js';
import { ConfigEditError } from './config-edit-error.js';

/** How the file's bytes became the editors' text, so the text can become bytes again. */
export interface ConfigLayout {
  bom: boolean;
  /** Every line ended in CRLF: the editors saw LF. */
  crlf: boolean;
  /** Not valid UTF-8: decoded one byte per char. */
  latin1: boolean;
}

export interface ConfigFile {
  /** The path Baton was given (perhaps a symlink). */
  file: string;
  /** Where the bytes live: the end of the symlink chain. */
  target: string;
  /** The bytes as read; null when there is no file. */
  bytes: Buffer | null;
  /** Decoded text for the editors ('' when there is no file). */
  text: string;
  layout: ConfigLayout;
  /** Permission bits, owner and group of the existing file. */
  stat: { mode: number; uid: number; gid: number } | null;
  /** When and how big the file was as read: a write checks the file is still so (see assertUnchanged). */
  seen: { mtimeNs: bigint; size: bigint; ino: bigint } | null;
}

/**
 * The file changed between Baton's read and its write (an agent such as a running Claude Code
 * rewrites its config often): the change is redone from a fresh read rather than writing over it.
 */
export class ConfigChangedError extends Error {
  constructor(file: string) {
    super(`${file} kept changing while Baton edited it; Baton left it as the other program wrote it. Try again.`);
    this.name = 'ConfigChangedError';
  }
}

const MAX_LINKS = 40;

/** The end of a symlink chain (relative links resolve against their own folder); dangling links too. */
export function resolveLinks(file: string): string {
  let current = path.resolve(file);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw err;
    }
    if (!stat.isSymbolicLink()) return current;
    current = path.resolve(path.dirname(current), fs.readlinkSync(current));
  }
  throw new ConfigEditError(`${file}: too many levels of symbolic links; Baton leaves it untouched.`);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeConfig(bytes: Buffer): { text: string; layout: ConfigLayout } {
  let text: string;
  let latin1 = false;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = bytes.toString('latin1');
    latin1 = true;
  }
  const bom = !latin1 && text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  const lf = (text.match(/\n/g) ?? []).length;
  const crlf = lf > 0 && (text.match(/\r\n/g) ?? []).length === lf;
  return { text: crlf ? text.replace(/\r\n/g, '\n') : text, layout: { bom, crlf, latin1 } };
}

function nonAscii(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) n++;
  return n;
}

/**
 * The editors' text back to bytes in the file's own layout. In a file that is not UTF-8, Baton's
 * additions must be ASCII (their encoding is unknown); otherwise the edit is refused.
 */
export function encodeConfig(text: string, layout: ConfigLayout, previous: string, file: string): Buffer {
  const withEol = layout.crlf ? text.replace(/\n/g, '\r\n') : text;
  if (!layout.latin1) return Buffer.from((layout.bom ? '\uFEFF' : '') + withEol, 'utf8');
  if (nonAscii(text) > nonAscii(previous) || /[^\u0000-\u00ff]/.test(text)) {
    throw new ConfigEditError(`${file} is not UTF-8 and Baton's entry has non-ASCII characters, whose encoding there is unknown; Baton leaves it untouched.`);
  }
  return Buffer.from(withEol, 'latin1');
}

export function readConfigFile(file: string): ConfigFile {
  const target = resolveLinks(file);
  let bytes: Buffer;
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(target, { bigint: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return { file, target, bytes: null, text: '', layout: { bom: false, crlf: false, latin1: false }, stat: null, seen: null };
  }
  if (!stat.isFile()) throw new ConfigEditError(`${file} is not a regular file; Baton leaves it untouched.`);
  try {
    bytes = fs.readFileSync(target);
  } catch (err) {
    throw new ConfigEditError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); Baton leaves it untouched.`);
  }
  return {
    file,
    target,
    bytes,
    ...decodeConfig(bytes),
    stat: { mode: Number(stat.mode) & 0o7777, uid: Number(stat.uid), gid: Number(stat.gid) },
    seen: { mtimeNs: stat.mtimeNs, size: stat.size, ino: stat.ino },
  };
}

/**
 * Throws ConfigChangedError unless the file is still what `config` read: no file when there was
 * none; otherwise the same inode, mtime and size, and the same bytes (an mtime can repeat).
 * Called as the last step before the rename, so another writer's change is never written over.
 */
export function assertUnchanged(config: ConfigFile): void {
  let stat: fs.BigIntStats | undefined;
  try {
    stat = fs.statSync(config.target, { bigint: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!stat || !config.seen || !config.bytes) {
    if (stat || config.bytes) throw new ConfigChangedError(config.file);
    return;
  }
  const { seen } = config;
  if (stat.ino !== seen.ino || stat.mtimeNs !== seen.mtimeNs || stat.size !== seen.size) throw new ConfigChangedError(config.file);
  let now: Buffer;
  try {
    now = fs.readFileSync(config.target);
  } catch {
    throw new ConfigChangedError(config.file);
  }
  if (!now.equals(config.bytes)) throw new ConfigChangedError(config.file);
}

/** Deletes the file Baton created, unless another program changed it since `config` was read. */
export function removeConfigFile(config: ConfigFile): void {
  assertUnchanged(config);
  fs.rmSync(config.target);
}

/**
 * Refuses a file its owner made read-only (checked on the mode bits: root could write it anyway).
 * Baton's change is the user's to allow, not Baton's to force.
 */
export function assertWritable(config: ConfigFile): void {
  if (config.stat && (config.stat.mode & 0o200) === 0) {
    const mode = (config.stat.mode & 0o777).toString(8).padStart(4, '0');
    throw new ConfigEditError(`${config.file} is read-only (mode ${mode}); Baton leaves it untouched. Make it writable (chmod u+w) to let Baton edit it.`);
  }
}

/** Mode for the new content: the file's own, or 0600 when it holds Baton's token (or is new). */
export function modeFor(config: ConfigFile, holdsToken: boolean): number {
  if (!config.stat) return 0o600;
  return holdsToken ? (config.stat.mode & 0o7000) | 0o600 : config.stat.mode;
}

/**
 * Atomically replaces the link target's bytes (temp file beside the target, not beside the link:
 * a rename over the link would replace it; fsync, rename), with the mode given and the original
 * owner and group (when Baton runs as another user, e.g. root). Right before the rename the file
 * is checked to be what was read (assertUnchanged): a concurrent writer's change is not lost.
 */
export function writeConfigBytes(config: ConfigFile, bytes: Buffer, mode: number): void {
  const { target } = config;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  let open = true;
  try {
    fs.writeFileSync(fd, bytes);
    if (config.stat && process.getuid && (config.stat.uid !== process.getuid() || config.stat.gid !== process.getgid?.())) {
      fs.fchownSync(fd, config.stat.uid, config.stat.gid);
    }
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    open = false;
    assertUnchanged(config);
    fs.renameSync(temp, target);
  } catch (err) {
    if (open) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** A private copy of the bytes as they were (it may hold a token), named by Baton's one backup policy. */
export function backupConfig(config: ConfigFile, date: Date): string | null {
  return config.bytes ? writeBackup(config.file, config.bytes, date) : null;
}
