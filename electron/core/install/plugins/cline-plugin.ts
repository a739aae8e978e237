/**
 * Installs Baton's Cline plugin (integrations/cline/baton.js) into Cline's global plugin folder
 * (`<CLINE_DIR or ~/.cline>/plugins/baton.js`, where Cline 3.0 loads JS/TS plugin modules from)
 * with the command of this Baton's hook filled in. Cline awaits a plugin's `beforeRun` and adds
 * its `appendContext` to the first model request; the shell files of its hooks folder run
 * detached and their output is dropped at run start, so they cannot carry a handoff. Installed
 * and removed like the OpenCode plugin (baton-file.ts): a file that is not Baton's is left alone,
 * and uninstall gives back what was there, folders Baton created included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assetPath } from '../../asset-path.js';
import type { Environment } from '../../paths.js';
import { hookRuntimeFor, type HookRuntime } from '../hooks/hook-command.js';
import type { McpInstallOutcome } from '../install-outcome.js';
import { changeBatonFile } from './baton-file.js';

const MARKER = '// Baton plugin for Cline';

/** Cline's global plugin folder follows CLINE_DIR, like the rest of its config (Cline 3.0's storage paths). */
export function clinePluginFile({ env, home }: Pick<Environment, 'env' | 'home'>): string {
  return path.join(env.CLINE_DIR?.trim() || path.join(home, '.cline'), 'plugins', 'baton.js');
}

function pluginSourceFile(): string {
  const file = assetPath('integrations', 'cline', 'baton.js');
  if (!fs.existsSync(file)) throw new Error(`The Cline plugin source is missing (looked for ${file}).`);
  return file;
}

export function renderClinePlugin(runtime: HookRuntime): string {
  // JSON string literals are valid JavaScript ones.
  const command = [runtime.node, ...(runtime.nodeArgs ?? []), runtime.script];
  return fs
    .readFileSync(pluginSourceFile(), 'utf8')
    .replace("'__BATON_HOOK__'", () => JSON.stringify(JSON.stringify(command)))
    .replace("'__BATON_DATA_DIR__'", () => JSON.stringify(runtime.dataDir ?? ''));
}

const isBatons = (text: string) => text.startsWith(MARKER);

/** Baton's plugin is in Cline's plugin folder (its `beforeRun` delivers pending handoffs). */
export function clinePluginInstalled(environment: Pick<Environment, 'env' | 'home'>): boolean {
  try {
    return isBatons(fs.readFileSync(clinePluginFile(environment), 'utf8'));
  } catch {
    return false;
  }
}

export interface ClinePluginOptions {
  environment: Environment;
  /** Baton's data dir: where the install record lives and the hook reads handoffs. */
  dataDir: string;
  dryRun?: boolean;
  now?: () => Date;
}

function change(opts: ClinePluginOptions, action: 'install' | 'uninstall', content: string) {
  const file = clinePluginFile(opts.environment);
  const outcome = changeBatonFile({ file, action, content, isBatons, what: "Baton's Cline plugin", entry: 'cline-plugin', ...opts });
  const base = { agent: 'cline' as const, file, backup: outcome.backup, diff: outcome.diff, ok: outcome.ok, changed: outcome.ok && outcome.kind !== 'unchanged' && !opts.dryRun };
  return { file, outcome, base };
}

export function installClinePlugin(opts: ClinePluginOptions): McpInstallOutcome {
  const { file, outcome, base } = change(opts, 'install', renderClinePlugin(hookRuntimeFor(opts.environment, opts.dataDir)));
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not write ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} is up to date.` };
  if (opts.dryRun) return { ...base, message: `Would write the Cline plugin to ${file} (dry run).` };
  return { ...base, message: `Installed the Cline plugin at ${file}; new Cline sessions pick up pending handoffs${outcome.backup ? `; backup at ${outcome.backup}` : ''}.` };
}

export function uninstallClinePlugin(opts: ClinePluginOptions): McpInstallOutcome {
  const { file, outcome, base } = change(opts, 'uninstall', '');
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not remove ${file}.` };
  if (outcome.kind === 'unchanged') return { ...base, message: `${file} does not exist; nothing to remove.` };
  if (opts.dryRun) return { ...base, message: `Would remove ${file} (dry run).` };
  return { ...base, message: outcome.kind === 'restored' ? `Removed the Cline plugin: ${file} holds its bytes from before the install again.` : `Removed the Cline plugin ${file}.` };
}

export function clinePluginStatus(environment: Pick<Environment, 'env' | 'home'>): string[] {
  const file = clinePluginFile(environment);
  return clinePluginInstalled(environment)
    ? [`plugin: installed — ${file}`]
    : ['plugin: not installed (`baton mcp install --agent cline --plugin` delivers pending handoffs to new Cline sessions)'];
}
