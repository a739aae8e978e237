/**
 * `baton mcp install|uninstall` and the `installMcp` API call: registers Baton's endpoint in each
 * agent's own MCP config, keeping every other byte the format lets us keep, backing the file up
 * before the first change, and reporting a unified diff (the whole output of a dry run).
 */
import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../../shared/model.js';
import type { McpInstallResult } from '../../../../shared/api-types.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { Environment } from '../../paths.js';
import { mcpConfigFile } from './config-locations.js';
import { codexEnvFile, codexEnvHolds, codexEnvWith, codexEnvWithout, readCodexEnv } from './codex-env.js';
import { ConfigEditError, type McpEndpoint } from './endpoint.js';
import { addJsonEntry, claudeFlavour, geminiFlavour, opencodeFlavour, qwenFlavour, readJsonEntry, removeJsonEntry } from './edit-json.js';
import { addTomlEntry, readTomlEntry, removeTomlEntry } from './edit-toml.js';
import { addYamlEntry, readYamlEntry, removeYamlEntry } from './edit-yaml.js';
import { installPiExtension, piExtensionStatus, uninstallPiExtension } from './pi-extension.js';

export interface ConfigFormat {
  add(text: string, endpoint: McpEndpoint, file: string): string;
  remove(text: string, name: string, file: string): string;
  read(text: string, name: string, file: string): unknown;
}

/** Agents that read MCP servers from a config file (pi has no MCP client). */
export const CONFIG_FORMATS: Partial<Record<AgentId, ConfigFormat>> = {
  claude: {
    add: (t, e, f) => addJsonEntry(claudeFlavour, t, e, f),
    remove: (t, n, f) => removeJsonEntry(claudeFlavour, t, n, f),
    read: (t, n, f) => readJsonEntry(claudeFlavour, t, n, f),
  },
  codex: { add: addTomlEntry, remove: removeTomlEntry, read: readTomlEntry },
  opencode: {
    add: (t, e, f) => addJsonEntry(opencodeFlavour, t, e, f),
    remove: (t, n, f) => removeJsonEntry(opencodeFlavour, t, n, f),
    read: (t, n, f) => readJsonEntry(opencodeFlavour, t, n, f),
  },
  hermes: { add: addYamlEntry, remove: removeYamlEntry, read: readYamlEntry },
  gemini: {
    add: (t, e, f) => addJsonEntry(geminiFlavour, t, e, f),
    remove: (t, n, f) => removeJsonEntry(geminiFlavour, t, n, f),
    read: (t, n, f) => readJsonEntry(geminiFlavour, t, n, f),
  },
  qwen: {
    add: (t, e, f) => addJsonEntry(qwenFlavour, t, e, f),
    remove: (t, n, f) => removeJsonEntry(qwenFlavour, t, n, f),
    read: (t, n, f) => readJsonEntry(qwenFlavour, t, n, f),
  },
};

export interface McpInstallOptions {
  agent: AgentId | 'all';
  endpoint: McpEndpoint;
  environment: Environment;
  dryRun?: boolean;
  /** For backup names; tests pin it. */
  now?: () => Date;
}

export interface McpInstallOutcome extends McpInstallResult {
  /** False when the file could not be edited (the message says why and what to do). */
  ok: boolean;
  /** Unified diff of the change (also for dry runs); empty when nothing changes. */
  diff: string;
}

export function selectedAgents(agent: AgentId | 'all'): AgentId[] {
  return agent === 'all' ? AGENTS.filter((a) => CONFIG_FORMATS[a] || a === 'pi') : [agent];
}

export function installMcp(options: McpInstallOptions): McpInstallOutcome[] {
  return selectedAgents(options.agent).flatMap((agent) => {
    // pi has no MCP client: Baton's tools reach it through Baton's pi extension.
    if (agent === 'pi') return [installPiExtension(options)];
    const outcome = applyChange(agent, options, (format, text, file) => format.add(text, options.endpoint, file), 'install');
    return agent === 'codex' && outcome.ok ? [outcome, applyCodexEnv(options, 'install')] : [outcome];
  });
}

export function uninstallMcp(options: McpInstallOptions): McpInstallOutcome[] {
  return selectedAgents(options.agent).flatMap((agent) => {
    if (agent === 'pi') return [uninstallPiExtension(options)];
    const outcome = applyChange(agent, options, (format, text, file) => format.remove(text, options.endpoint.name, file), 'uninstall');
    return agent === 'codex' && outcome.ok ? [outcome, applyCodexEnv(options, 'uninstall')] : [outcome];
  });
}

/** Codex's token line in $CODEX_HOME/.env (see codex-env.ts): written private, removed on uninstall. */
function applyCodexEnv(options: McpInstallOptions, action: 'install' | 'uninstall'): McpInstallOutcome {
  const file = codexEnvFile(options.environment);
  const base = { agent: 'codex' as const, file, backup: null, changed: false };
  const before = readCodexEnv(options.environment);
  const after = action === 'install' ? codexEnvWith(before ?? '', options.endpoint.token) : before === null ? null : codexEnvWithout(before);
  if (after === null || after === before || (before === null && after === '')) {
    const tightened = !options.dryRun && before !== null && keepPrivate(file, before, options.endpoint.token);
    return { ...base, ok: true, diff: '', message: `${file} ${action === 'install' ? 'already holds the token' : 'has no Baton line'}; unchanged.${tightened ? ' Made it private (mode 0600).' : ''}` };
  }
  const diff = createTwoFilesPatch(before === null ? '/dev/null' : file, after === '' ? '/dev/null' : file, before ?? '', after);
  if (options.dryRun) return { ...base, ok: true, diff, message: `Would ${action === 'install' ? 'write the token for Codex to' : 'remove the token from'} ${file} (dry run).` };
  try {
    if (after === '') fs.rmSync(file);
    else writeFileAtomic(file, after, 0o600);
  } catch (err) {
    return { ...base, ok: false, diff, message: `Could not write ${file}: ${(err as Error).message}` };
  }
  return {
    ...base,
    changed: true,
    ok: true,
    diff,
    message: action === 'install' ? `Codex reads the token from ${file} (mode 0600) as $BATON_MCP_TOKEN.` : `Removed the token from ${file}.`,
  };
}

export interface McpRegistrationStatus {
  agent: AgentId;
  file: string;
  installed: boolean;
  /** Present with exactly the URL and credentials Baton would write now. */
  current: boolean;
  /** The URL the agent's config registers for Baton, when it has one. */
  registeredUrl: string | null;
}

function urlOf(entry: unknown): string | null {
  if (entry === null || typeof entry !== 'object') return null;
  const record = entry as Record<string, unknown>;
  const url = record.url ?? record.httpUrl;
  return typeof url === 'string' ? url : null;
}

/** Whether Baton's entry is present (and current) in each agent's config, without changing anything. */
export function mcpInstallStatus(options: Omit<McpInstallOptions, 'dryRun'>): McpRegistrationStatus[] {
  return selectedAgents(options.agent).map((agent) => {
    if (agent === 'pi') {
      const pi = piExtensionStatus(options.endpoint, options.environment);
      // The extension names the URL it was rendered with; a current one names this endpoint's.
      return { ...pi, registeredUrl: pi.current ? options.endpoint.url : null };
    }
    const file = mcpConfigFile(agent, options.environment);
    const format = CONFIG_FORMATS[agent];
    const none = { agent, file, installed: false, current: false, registeredUrl: null };
    if (!format) return none;
    try {
      const text = readIfExists(file) ?? '';
      const entry = format.read(text, options.endpoint.name, file);
      const installed = entry !== undefined;
      const secretKept = agent !== 'codex' || codexEnvHolds(readCodexEnv(options.environment), options.endpoint.token);
      return { agent, file, installed, current: installed && secretKept && format.add(text, options.endpoint, file) === text, registeredUrl: urlOf(entry) };
    } catch {
      return none;
    }
  });
}

function applyChange(
  agent: AgentId,
  options: McpInstallOptions,
  edit: (format: ConfigFormat, text: string, file: string) => string,
  action: 'install' | 'uninstall',
): McpInstallOutcome {
  const file = mcpConfigFile(agent, options.environment);
  const base = { agent, file, backup: null, changed: false };
  const format = CONFIG_FORMATS[agent];
  if (!format) return { ...base, ok: false, diff: '', message: `${AGENT_LABELS[agent]} has no MCP client; Baton reaches it through its own extension.` };
  let before: string | null;
  let after: string;
  try {
    before = readIfExists(file);
    if (before === null && action === 'uninstall') {
      return { ...base, ok: true, diff: '', message: `${file} does not exist; nothing to remove.` };
    }
    after = edit(format, before ?? '', file);
  } catch (err) {
    const message = err instanceof ConfigEditError ? err.message : `Could not update ${file}: ${(err as Error).message}`;
    return { ...base, ok: false, diff: '', message };
  }
  const original = before ?? '';
  if (after === original) {
    const message = action === 'install' ? `${file} already registers "${options.endpoint.name}"; unchanged.` : `${file} has no "${options.endpoint.name}" entry; unchanged.`;
    const tightened = !options.dryRun && before !== null && keepPrivate(file, before, options.endpoint.token);
    return { ...base, ok: true, diff: '', message: tightened ? `${message} Made it private (mode 0600): it holds Baton's token.` : message };
  }
  const diff = createTwoFilesPatch(before === null ? '/dev/null' : file, file, original, after, undefined, undefined, { context: 3 });
  const what = action === 'install' ? `register "${options.endpoint.name}" (${options.endpoint.url})` : `remove "${options.endpoint.name}"`;
  if (options.dryRun) return { ...base, ok: true, diff, message: `Would ${what} in ${file} (dry run: nothing written).` };

  let backup: string | null = null;
  try {
    if (before !== null) {
      backup = freeName(`${file}.bak-${stamp(options.now?.() ?? new Date())}`);
      fs.copyFileSync(file, backup, fs.constants.COPYFILE_EXCL);
    }
    // A file that carries the bearer token is readable by its owner only; otherwise its mode stays.
    const mode = after.includes(options.endpoint.token) || before === null ? 0o600 : fs.statSync(file).mode & 0o777;
    writeFileAtomic(file, after, mode);
  } catch (err) {
    return { ...base, backup, ok: false, diff, message: `Could not write ${file}: ${(err as Error).message}` };
  }
  const done = action === 'install' ? `Registered "${options.endpoint.name}" (${options.endpoint.url})` : `Removed "${options.endpoint.name}"`;
  return { ...base, changed: true, backup, ok: true, diff, message: `${done} in ${file}${backup ? `; backup at ${backup}` : ''}.` };
}

/**
 * An agent config that holds Baton's token in the clear (no indirection the agent offers) is made
 * readable by its owner only, without touching its content. True when the mode was changed.
 */
export function keepPrivate(file: string, text: string, token: string): boolean {
  if (process.platform === 'win32' || !text.includes(token)) return false;
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return false;
  fs.chmodSync(file, mode & 0o700);
  return true;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Never overwrite an earlier backup (two runs in the same second get `-1`, `-2`, …). */
function freeName(wanted: string): string {
  let name = wanted;
  for (let i = 1; fs.existsSync(name); i++) name = `${wanted}-${i}`;
  return name;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
