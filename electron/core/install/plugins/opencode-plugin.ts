/**
 * Installs the OpenCode plugin (integrations/opencode/baton.js) into OpenCode's global plugin
 * folder with Baton's /ingest URL and the path of Baton's token file filled in (the plugin reads
 * the token when it pushes, so the file holds no secret).
 */
import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { Environment } from '../../paths.js';
import { currentHookRuntime, type HookRuntime } from '../hooks/hook-command.js';
import { opencodePluginFile } from '../config/config-locations.js';
import { assetPath } from '../../asset-path.js';
import type { McpEndpoint } from '../endpoint.js';
import type { McpInstallOutcome } from '../install-outcome.js';

/** The plugin source, from the sources or next to a build. */
export function pluginSourceFile(): string {
  const file = assetPath('integrations', 'opencode', 'baton.js');
  if (!fs.existsSync(file)) throw new Error(`The OpenCode plugin source is missing (looked for ${file}).`);
  return file;
}

/** A JavaScript string literal (JSON's escaping is valid JavaScript). */
function literal(value: string): string {
  return JSON.stringify(value);
}

export function renderPlugin(endpoint: McpEndpoint & { tokenFile: string }, runtime: HookRuntime = currentHookRuntime()): string {
  const ingestUrl = endpoint.url.replace(/\/mcp$/, '/ingest');
  return fs
    .readFileSync(pluginSourceFile(), 'utf8')
    .replace("'__BATON_INGEST_URL__'", literal(ingestUrl))
    .replace("'__BATON_TOKEN_FILE__'", literal(endpoint.tokenFile))
    .replace("'__BATON_HOOK__'", literal(JSON.stringify([runtime.node, runtime.script])));
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Baton's plugin is in OpenCode's global plugin folder (its start-up injection delivers pending handoffs). */
export function opencodePluginInstalled(environment: Pick<Environment, 'env' | 'home'>): boolean {
  return fs.existsSync(opencodePluginFile(environment));
}

export function installOpencodePlugin(opts: { environment: Environment; endpoint: McpEndpoint & { tokenFile: string }; dryRun?: boolean }): McpInstallOutcome {
  const file = opencodePluginFile(opts.environment);
  const before = read(file);
  const after = renderPlugin(opts.endpoint);
  const base = { agent: 'opencode' as const, file, backup: null };
  if (before === after) return { ...base, changed: false, ok: true, diff: '', message: `${file} is up to date.` };
  const diff = createTwoFilesPatch(before === null ? '/dev/null' : file, file, before ?? '', after);
  if (opts.dryRun) return { ...base, changed: false, ok: true, diff, message: `Would write the OpenCode plugin to ${file} (dry run).` };
  writeFileAtomic(file, after, 0o600);
  return { ...base, changed: true, ok: true, diff, message: `Installed the OpenCode plugin at ${file}; restart OpenCode to load it.` };
}

export function uninstallOpencodePlugin(opts: { environment: Environment; dryRun?: boolean }): McpInstallOutcome {
  const file = opencodePluginFile(opts.environment);
  const before = read(file);
  const base = { agent: 'opencode' as const, file, backup: null };
  if (before === null) return { ...base, changed: false, ok: true, diff: '', message: `${file} does not exist; nothing to remove.` };
  if (!before.includes('Baton plugin for OpenCode')) {
    return { ...base, changed: false, ok: false, diff: '', message: `${file} is not Baton's plugin; left in place.` };
  }
  const diff = createTwoFilesPatch(file, '/dev/null', before, '');
  if (opts.dryRun) return { ...base, changed: false, ok: true, diff, message: `Would remove ${file} (dry run).` };
  fs.rmSync(file);
  return { ...base, changed: true, ok: true, diff, message: `Removed the OpenCode plugin ${file}.` };
}
