/**
 * pi has no MCP client: Baton installs its pi extension (integrations/pi/baton.ts) into pi's
 * extensions folder instead, which offers Baton's MCP tools inside pi. The installed file names
 * Baton's MCP URL and *the path of* Baton's token file, never the token, so nothing secret lands in
 * pi's folder and a regenerated token needs no reinstall. Only a file that is Baton's own is
 * replaced or removed, through the path every config takes (baton-file.ts): backed up first,
 * written through a symlink, owner and mode kept, and given back at uninstall.
 */
import fs from 'node:fs';
import path from 'node:path';
import { currentHookRuntime, type HookRuntime } from '../hooks/hook-command.js';
import { batonDataDir, type Environment } from '../../paths.js';
import { changeBatonFile } from './baton-file.js';
import { mcpConfigFile } from '../config/config-locations.js';
import { assetPath } from '../../asset-path.js';
import type { McpEndpoint } from '../endpoint.js';
import type { McpInstallOutcome } from '../install-outcome.js';

/** First-line marker: the file is Baton's, safe to replace or remove. */
export const PI_EXTENSION_MARKER = '// Baton extension for pi';

/** The extension source, from the sources or next to a build. */
export function piExtensionSourceFile(): string {
  const file = assetPath('integrations', 'pi', 'baton.ts');
  if (!fs.existsSync(file)) throw new Error(`The pi extension source is missing (looked for ${file}).`);
  return file;
}

/** Where Baton keeps its token (see TokenStore): the extension reads it at each call. */
export function batonTokenFile(environment: Environment): string {
  return path.join(batonDataDir(environment), 'token');
}

export function renderPiExtension(endpoint: McpEndpoint, environment: Environment, runtime: HookRuntime = currentHookRuntime()): string {
  const quote = (s: string) => JSON.stringify(s).replace(/'/g, "\\'").replace(/^"|"$/g, "'");
  return fs
    .readFileSync(piExtensionSourceFile(), 'utf8')
    .replace("'__BATON_MCP_URL__'", quote(endpoint.url))
    .replace("'__BATON_TOKEN_FILE__'", quote(batonTokenFile(environment)))
    // The handoff hook's command line: this Baton's Node and bin/baton.mjs (as for the agents' hooks).
    .replace("'__BATON_HOOK__'", quote(JSON.stringify([runtime.node, ...(runtime.nodeArgs ?? []), runtime.script])));
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Whether the installed extension delivers pending handoffs (it asks `baton hook session-start` when pi starts). */
export function piExtensionDeliversHandoffs(environment: Environment): boolean {
  try {
    const text = fs.readFileSync(mcpConfigFile('pi', environment), 'utf8');
    return text.startsWith(PI_EXTENSION_MARKER) && text.includes("'session-start', '--agent', 'pi'");
  } catch {
    return false;
  }
}

export function piExtensionStatus(endpoint: McpEndpoint, environment: Environment): { agent: 'pi'; file: string; installed: boolean; current: boolean } {
  const file = mcpConfigFile('pi', environment);
  try {
    const text = read(file);
    const installed = text !== null && text.startsWith(PI_EXTENSION_MARKER);
    return { agent: 'pi', file, installed, current: installed && text === renderPiExtension(endpoint, environment) };
  } catch {
    return { agent: 'pi', file, installed: false, current: false };
  }
}

interface PiOptions {
  environment: Environment;
  dryRun?: boolean;
  now?: () => Date;
  /** Baton's data dir, where the install record lives (default: the environment's). */
  dataDir?: string;
}

function change(opts: PiOptions, action: 'install' | 'uninstall', content: string) {
  const file = mcpConfigFile('pi', opts.environment);
  const outcome = changeBatonFile({
    file,
    action,
    content,
    isBatons: (text) => text.startsWith(PI_EXTENSION_MARKER),
    what: "Baton's pi extension",
    entry: 'pi-extension',
    ...opts,
  });
  const base = { agent: 'pi' as const, file, backup: outcome.backup, diff: outcome.diff, ok: outcome.ok, changed: outcome.ok && outcome.kind !== 'unchanged' && !opts.dryRun };
  return { file, outcome, base };
}

export function installPiExtension(opts: PiOptions & { endpoint: McpEndpoint }): McpInstallOutcome {
  const file = mcpConfigFile('pi', opts.environment);
  let content: string;
  try {
    content = renderPiExtension(opts.endpoint, opts.environment);
  } catch (err) {
    return { agent: 'pi', file, backup: null, changed: false, ok: false, diff: '', message: `Could not prepare ${file}: ${(err as Error).message}` };
  }
  const { outcome, base } = change(opts, 'install', content);
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not write ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} is up to date.` };
  if (opts.dryRun) return { ...base, message: `Would write Baton's pi extension to ${file} (dry run: nothing written).` };
  const backup = outcome.backup;
  return {
    ...base,
    message: `Installed Baton's pi extension at ${file} (Baton's tools as baton__*; the token stays in ${batonTokenFile(opts.environment)}); start a new pi session to load it${backup ? `; backup at ${backup}` : ''}.`,
  };
}

export function uninstallPiExtension(opts: PiOptions): McpInstallOutcome {
  const { file, outcome, base } = change(opts, 'uninstall', '');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not remove ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} does not exist; nothing to remove.` };
  if (opts.dryRun) return { ...base, message: `Would remove ${file} (dry run).` };
  if (outcome.kind === 'restored') return { ...base, message: `Removed Baton's pi extension: ${file} holds its bytes from before the install again.` };
  return { ...base, message: `Removed Baton's pi extension ${file}.` };
}
