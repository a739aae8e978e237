/**
 * OpenCode (1.18.x) — and Kilo Code 7.7, its fork, with `@kilocode/plugin` — installs `@opencode-ai/plugin` into its config folder at every start until that
 * succeeds, and when any plugin is present it waits for that install before it answers. Without
 * network npm retries the fetch for ~70 s, so Baton's plugin would delay every offline start by that
 * much. OpenCode runs the install with the npm configuration of that folder, so one line in its
 * `.npmrc`, `fetch-retries=0`, makes an offline attempt fail at once; online the install still
 * happens (once), and nothing is pretended installed. npm only reads a folder's `.npmrc` when the
 * folder is its own prefix (it has a `package.json` or `node_modules`), so an empty `node_modules`
 * is created when neither exists: OpenCode creates it anyway on its first successful install.
 * (Kilo Code 7.7.7 measured the same: ~70 s offline without the line, none with it.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { changeConfig } from '../config/config-change.js';
import { mcpRecords } from './baton-file.js';
import type { Environment } from '../../paths.js';
import type { McpInstallOutcome } from '../install-outcome.js';
import { PLUGIN_HOSTS, type PluginHost } from './plugin-hosts.js';

const MARKERS: Record<PluginHost, string> = {
  opencode: '# Added by Baton (baton mcp install --plugin): an offline OpenCode start must not wait ~70 s for npm retries.',
  kilo: '# Added by Baton (baton mcp install --agent kilo --plugin): an offline Kilo Code start must not wait ~70 s for npm retries.',
};
const SETTING = 'fetch-retries=0';

export function npmrcFile(host: PluginHost, environment: Pick<Environment, 'env' | 'home'>): string {
  return path.join(PLUGIN_HOSTS[host].configDir(environment), '.npmrc');
}

export function opencodeNpmrcFile(environment: Pick<Environment, 'env' | 'home'>): string {
  return npmrcFile('opencode', environment);
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
  return text.split(/\r?\n/).some((line) => /^\s*fetch-retries\s*=/.test(line) && !line.startsWith('# Added by Baton'));
}

export function withBatonNpmrc(text: string, host: PluginHost = 'opencode'): string {
  const marker = MARKERS[host];
  if (text.includes(marker) || setsRetries(text)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const prefix = text === '' || text.endsWith('\n') ? text : text + eol;
  return `${prefix}${marker}${eol}${SETTING}${eol}`;
}

export function withoutBatonNpmrc(text: string, host: PluginHost = 'opencode'): string {
  const marker = MARKERS[host];
  const lines = text.split(/(?<=\n)/);
  const at = lines.findIndex((line) => line.trimEnd() === marker);
  if (at === -1) return text;
  const drop = lines[at + 1]?.trim() === SETTING ? 2 : 1;
  return [...lines.slice(0, at), ...lines.slice(at + drop)].join('');
}

export function hasBatonNpmrc(environment: Pick<Environment, 'env' | 'home'>, host: PluginHost = 'opencode'): boolean {
  const text = read(npmrcFile(host, environment));
  return text !== null && (text.includes(MARKERS[host]) || setsRetries(text));
}

export interface NpmrcOptions {
  environment: Environment;
  dryRun?: boolean;
  now?: () => Date;
  /** Baton's data dir, where the install record lives (default: the environment's). */
  dataDir?: string;
}

/** Through the path every config takes (config-change.ts): symlinks, mode, owner, refusals, give-back. */
function change(host: PluginHost, opts: NpmrcOptions, action: 'install' | 'uninstall') {
  const file = npmrcFile(host, opts.environment);
  const marker = MARKERS[host];
  const dir = path.dirname(file);
  // npm reads the folder's .npmrc only when the folder is its own prefix (see above).
  const prefixMissing = !fs.existsSync(path.join(dir, 'package.json')) && !fs.existsSync(path.join(dir, 'node_modules'));
  const outcome = changeConfig({
    file,
    action,
    editor: { add: (text) => withBatonNpmrc(text, host), remove: (text) => withoutBatonNpmrc(text, host), has: (text) => text.includes(marker) },
    records: mcpRecords(opts.environment, opts.dataDir),
    entry: `${host}-npmrc`,
    companionDirs: action === 'install' && prefixMissing ? [path.join(dir, 'node_modules')] : [],
    dryRun: opts.dryRun,
    now: opts.now,
  });
  const base = { agent: host, file, backup: outcome.backup, diff: outcome.diff, ok: outcome.ok, changed: outcome.ok && outcome.kind !== 'unchanged' && !opts.dryRun };
  return { file, outcome, base };
}

export function installNpmrc(host: PluginHost, opts: NpmrcOptions): McpInstallOutcome {
  const { label, dependency } = PLUGIN_HOSTS[host];
  const { file, outcome, base } = change(host, opts, 'install');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} already keeps offline ${label} starts fast.` };
  if (opts.dryRun) return { ...base, message: `Would add "${SETTING}" to ${file} (dry run).` };
  return {
    ...base,
    message: `Added "${SETTING}" to ${file}: ${label}'s start-up install of ${dependency} fails at once offline instead of delaying the start.`,
  };
}

export function uninstallNpmrc(host: PluginHost, opts: NpmrcOptions): McpInstallOutcome {
  const { file, outcome, base } = change(host, opts, 'uninstall');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} has no Baton line; unchanged.` };
  if (opts.dryRun) return { ...base, message: `Would remove Baton's line from ${file} (dry run).` };
  return { ...base, message: outcome.kind === 'deleted' ? `Removed ${file} (Baton had created it).` : `Removed Baton's line from ${file}.` };
}

export function installOpencodeNpmrc(opts: NpmrcOptions): McpInstallOutcome {
  return installNpmrc('opencode', opts);
}

export function uninstallOpencodeNpmrc(opts: NpmrcOptions): McpInstallOutcome {
  return uninstallNpmrc('opencode', opts);
}
