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
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return { file, target, bytes: null, text: '', layout: { bom: false, crlf: false, latin1: false }, stat: null };
  }
  if (!stat.isFile()) throw new ConfigEditError(`${file} is not a regular file; Baton leaves it untouched.`);
  try {
    bytes = fs.readFileSync(target);
  } catch (err) {
    throw new ConfigEditError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); Baton leaves it untouched.`);
  }
  return { file, target, bytes, ...decodeConfig(bytes), stat: { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid } };
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
 * Atomically replaces the link target's bytes (temp file beside it, fsync, rename), with the
 * mode given and the original owner and group (when Baton runs as another user, e.g. root).
 */
export function writeConfigBytes(config: ConfigFile, bytes: Buffer, mode: number): void {
  const { target } = config;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, bytes);
    if (config.stat && process.getuid && (config.stat.uid !== process.getuid() || config.stat.gid !== process.getgid?.())) {
      fs.fchownSync(fd, config.stat.uid, config.stat.gid);
    }
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(temp, target);
  } catch (err) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** Writes the editors' text in the file's layout (see encodeConfig); returns the bytes written. */
export function writeConfigText(config: ConfigFile, text: string, holdsToken: boolean): Buffer {
  const bytes = encodeConfig(text, config.layout, config.text, config.file);
  writeConfigBytes(config, bytes, modeFor(config, holdsToken));
  return bytes;
}

/** A private copy of the bytes as they were (it may hold a token), named by Baton's one backup policy. */
export function backupConfig(config: ConfigFile, date: Date): string | null {
  return config.bytes ? writeBackup(config.file, config.bytes, date) : null;
}
