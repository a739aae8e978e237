/**
 * pi has no MCP client: Baton installs its pi extension (integrations/pi/baton.ts) into pi's
 * extensions folder instead, which offers Baton's MCP tools inside pi. The installed file names
 * Baton's MCP URL and *the path of* Baton's token file, never the token, so nothing secret lands in
 * pi's folder and a regenerated token needs no reinstall. Only a file that is Baton's own is
 * replaced or removed; a replaced one is backed up first, like every other agent config.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { currentHookRuntime, type HookRuntime } from '../hooks/hook-command.js';
import { batonDataDir, type Environment } from '../../paths.js';
import { writeBackup } from '../config/backups.js';
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

export function installPiExtension(opts: { environment: Environment; endpoint: McpEndpoint; dryRun?: boolean; now?: () => Date }): McpInstallOutcome {
  const file = mcpConfigFile('pi', opts.environment);
  const base = { agent: 'pi' as const, file, backup: null, changed: false };
  let before: string | null;
  let after: string;
  try {
    before = read(file);
    after = renderPiExtension(opts.endpoint, opts.environment);
  } catch (err) {
    return { ...base, ok: false, diff: '', message: `Could not prepare ${file}: ${(err as Error).message}` };
  }
  if (before !== null && !before.startsWith(PI_EXTENSION_MARKER)) {
    return { ...base, ok: false, diff: '', message: `${file} exists and is not Baton's pi extension; left in place. Move it away and run the install again.` };
  }
  if (before === after) return { ...base, ok: true, diff: '', message: `${file} is up to date.` };
  const diff = createTwoFilesPatch(before === null ? '/dev/null' : file, file, before ?? '', after);
  if (opts.dryRun) return { ...base, ok: true, diff, message: `Would write Baton's pi extension to ${file} (dry run: nothing written).` };
  let backup: string | null = null;
  try {
    if (before !== null) {
      backup = writeBackup(file, fs.readFileSync(file), opts.now?.() ?? new Date());
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, after, 0o600);
  } catch (err) {
    return { ...base, backup, ok: false, diff, message: `Could not write ${file}: ${(err as Error).message}` };
  }
  return {
    ...base,
    backup,
    changed: true,
    ok: true,
    diff,
    message: `Installed Baton's pi extension at ${file} (Baton's tools as baton__*; the token stays in ${batonTokenFile(opts.environment)}); start a new pi session to load it${backup ? `; backup at ${backup}` : ''}.`,
  };
}

export function uninstallPiExtension(opts: { environment: Environment; dryRun?: boolean }): McpInstallOutcome {
  const file = mcpConfigFile('pi', opts.environment);
  const base = { agent: 'pi' as const, file, backup: null, changed: false };
  let before: string | null;
  try {
    before = read(file);
  } catch (err) {
    return { ...base, ok: false, diff: '', message: `Could not read ${file}: ${(err as Error).message}` };
  }
  if (before === null) return { ...base, ok: true, diff: '', message: `${file} does not exist; nothing to remove.` };
  if (!before.startsWith(PI_EXTENSION_MARKER)) return { ...base, ok: false, diff: '', message: `${file} is not Baton's pi extension; left in place.` };
  const diff = createTwoFilesPatch(file, '/dev/null', before, '');
  if (opts.dryRun) return { ...base, ok: true, diff, message: `Would remove ${file} (dry run).` };
  fs.rmSync(file);
  return { ...base, changed: true, ok: true, diff, message: `Removed Baton's pi extension ${file}.` };
}
