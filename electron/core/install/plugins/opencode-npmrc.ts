/**
 * OpenCode (1.18.x) installs `@opencode-ai/plugin` into its config folder at every start until that
 * succeeds, and when any plugin is present it waits for that install before it answers. Without
 * network npm retries the fetch for ~70 s, so Baton's plugin would delay every offline start by that
 * much. OpenCode runs the install with the npm configuration of that folder, so one line in its
 * `.npmrc`, `fetch-retries=0`, makes an offline attempt fail at once; online the install still
 * happens (once), and nothing is pretended installed. npm only reads a folder's `.npmrc` when the
 * folder is its own prefix (it has a `package.json` or `node_modules`), so an empty `node_modules`
 * is created when neither exists: OpenCode creates it anyway on its first successful install.
 */
import fs from 'node:fs';
import path from 'node:path';
import { changeConfig } from '../config/config-change.js';
import { mcpRecords } from './baton-file.js';
import type { Environment } from '../../paths.js';
import { opencodeConfigDir } from '../config/config-locations.js';
import type { McpInstallOutcome } from '../install-outcome.js';

const MARKER = '# Added by Baton (baton mcp install --plugin): an offline OpenCode start must not wait ~70 s for npm retries.';
const SETTING = 'fetch-retries=0';

export function opencodeNpmrcFile(environment: Pick<Environment, 'env' | 'home'>): string {
  return path.join(opencodeConfigDir(environment), '.npmrc');
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The user's own `fetch-retries` wins: Baton adds its line only when there is none. */
function setsRetries(text: string): boolean {
  return text.split(/\r?\n/).some((line) => /^\s*fetch-retries\s*=/.test(line) && !line.includes(MARKER));
}

export function withBatonNpmrc(text: string): string {
  if (text.includes(MARKER) || setsRetries(text)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const prefix = text === '' || text.endsWith('\n') ? text : text + eol;
  return `${prefix}${MARKER}${eol}${SETTING}${eol}`;
}

export function withoutBatonNpmrc(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const at = lines.findIndex((line) => line.trimEnd() === MARKER);
  if (at === -1) return text;
  const drop = lines[at + 1]?.trim() === SETTING ? 2 : 1;
  return [...lines.slice(0, at), ...lines.slice(at + drop)].join('');
}

export function hasBatonNpmrc(environment: Pick<Environment, 'env' | 'home'>): boolean {
  const text = read(opencodeNpmrcFile(environment));
  return text !== null && (text.includes(MARKER) || setsRetries(text));
}

export interface NpmrcOptions {
  environment: Environment;
  dryRun?: boolean;
  now?: () => Date;
  /** Baton's data dir, where the install record lives (default: the environment's). */
  dataDir?: string;
}

/** Through the path every config takes (config-change.ts): symlinks, mode, owner, refusals, give-back. */
function change(opts: NpmrcOptions, action: 'install' | 'uninstall') {
  const file = opencodeNpmrcFile(opts.environment);
  const dir = path.dirname(file);
  // npm reads the folder's .npmrc only when the folder is its own prefix (see above).
  const prefixMissing = !fs.existsSync(path.join(dir, 'package.json')) && !fs.existsSync(path.join(dir, 'node_modules'));
  const outcome = changeConfig({
    file,
    action,
    editor: { add: withBatonNpmrc, remove: withoutBatonNpmrc, has: (text) => text.includes(MARKER) },
    records: mcpRecords(opts.environment, opts.dataDir),
    entry: 'opencode-npmrc',
    companionDirs: action === 'install' && prefixMissing ? [path.join(dir, 'node_modules')] : [],
    dryRun: opts.dryRun,
    now: opts.now,
  });
  const base = { agent: 'opencode' as const, file, backup: outcome.backup, diff: outcome.diff, ok: outcome.ok, changed: outcome.ok && outcome.kind !== 'unchanged' && !opts.dryRun };
  return { file, outcome, base };
}

export function installOpencodeNpmrc(opts: NpmrcOptions): McpInstallOutcome {
  const { file, outcome, base } = change(opts, 'install');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} already keeps offline OpenCode starts fast.` };
  if (opts.dryRun) return { ...base, message: `Would add "${SETTING}" to ${file} (dry run).` };
  return {
    ...base,
    message: `Added "${SETTING}" to ${file}: OpenCode's start-up install of @opencode-ai/plugin fails at once offline instead of delaying the start.`,
  };
}

export function uninstallOpencodeNpmrc(opts: NpmrcOptions): McpInstallOutcome {
  const { file, outcome, base } = change(opts, 'uninstall');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} has no Baton line; unchanged.` };
  if (opts.dryRun) return { ...base, message: `Would remove Baton's line from ${file} (dry run).` };
  return { ...base, message: outcome.kind === 'deleted' ? `Removed ${file} (Baton had created it).` : `Removed Baton's line from ${file}.` };
}
