/**
 * `baton mcp install|uninstall` and the `installMcp` API call: registers Baton's endpoint in each
 * agent's own MCP config, keeping every other byte the format lets us keep, backing the file up
 * before the first change, and reporting a unified diff (the whole output of a dry run).
 */
import fs from 'node:fs';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../../shared/model.js';
import type { Environment } from '../../paths.js';
import { changeConfig } from '../config/config-change.js';
import { readConfigFile } from '../config/config-file.js';
import type { InstallRecords } from '../config/install-record.js';
import { mcpConfigFile } from '../config/config-locations.js';
import { codexEnvFile, codexEnvHasLine, codexEnvHolds, codexEnvWith, codexEnvWithout, readCodexEnv } from '../config/codex-env.js';
import type { McpEndpoint } from '../endpoint.js';
import type { McpInstallOutcome } from '../install-outcome.js';
import {
  addJsonEntry,
  claudeFlavour,
  clineFlavour,
  copilotFlavour,
  droidFlavour,
  geminiFlavour,
  jsonEntryContainers,
  opencodeFlavour,
  kiloFlavour,
  parseJsonConfig,
  qwenFlavour,
  readJsonEntry,
  removeEmptyJson,
  removeJsonEntry,
  type JsonFlavour,
} from '../config/edit-json.js';
import { addTomlEntry, parseTomlConfig, readTomlEntry, removeTomlEntry } from '../config/edit-toml.js';
import { addLettaEntry, lettaAgentCount, readLettaEntry, removeLettaEntry } from '../config/edit-letta-settings.js';
import { addYamlEntry, readYamlEntry, removeEmptyYaml, removeYamlEntry, YAML_ENTRY_CONTAINERS } from '../config/edit-yaml.js';
import { parseYamlConfig } from '../config/yaml-parse.js';
import { addContinueEntry, CONTINUE_ENTRY_CONTAINERS, readContinueEntry, removeContinueEntry } from '../config/edit-continue-yaml.js';
import { installPiExtension, piExtensionStatus, uninstallPiExtension } from '../plugins/pi-extension.js';
import { mcpRecords } from '../plugins/baton-file.js';

export interface ConfigFormat {
  add(text: string, endpoint: McpEndpoint, file: string): string;
  remove(text: string, name: string, file: string): string;
  read(text: string, name: string, file: string): unknown;
  /** Parsed data, to see which containers Baton's entry created. */
  plain(text: string, file: string): unknown;
  /** Containers Baton's entry may bring along, deepest first. */
  containers(text: string, name: string, file: string): string[][];
  /** The container at `at` removed if it is empty; the text as it is otherwise. */
  removeEmpty(text: string, at: string[], file: string): string;
}

function jsonFormat(flavour: JsonFlavour): ConfigFormat {
  return {
    add: (t, e, f) => addJsonEntry(flavour, t, e, f),
    remove: (t, n, f) => removeJsonEntry(flavour, t, n, f),
    read: (t, n, f) => readJsonEntry(flavour, t, n, f),
    plain: parseJsonConfig,
    containers: (t, n, f) => jsonEntryContainers(flavour, t, n, f),
    removeEmpty: removeEmptyJson,
  };
}

/** Agents that read MCP servers from a config file (pi has no MCP client). */
export const CONFIG_FORMATS: Partial<Record<AgentId, ConfigFormat>> = {
  claude: jsonFormat(claudeFlavour),
  // Codex's tables are implicit: `[mcp_servers.baton]` brings no container of its own.
  codex: { add: addTomlEntry, remove: removeTomlEntry, read: readTomlEntry, plain: parseTomlConfig, containers: () => [], removeEmpty: (t) => t },
  opencode: jsonFormat(opencodeFlavour),
  kilo: jsonFormat(kiloFlavour),
  hermes: {
    add: addYamlEntry,
    remove: removeYamlEntry,
    read: readYamlEntry,
    plain: (t, f) => parseYamlConfig(t, f).toJS() as unknown,
    containers: () => YAML_ENTRY_CONTAINERS,
    removeEmpty: removeEmptyYaml,
  },
  gemini: jsonFormat(geminiFlavour),
  qwen: jsonFormat(qwenFlavour),
  copilot: jsonFormat(copilotFlavour),
  cline: jsonFormat(clineFlavour),
  // cn's config.yaml: `mcpServers` is a list; Baton's item is the one named after the endpoint.
  continue: {
    add: addContinueEntry,
    remove: removeContinueEntry,
    read: readContinueEntry,
    plain: (t, f) => parseYamlConfig(t, f).toJS() as unknown,
    containers: () => CONTINUE_ENTRY_CONTAINERS,
    removeEmpty: removeEmptyYaml,
  },
  droid: jsonFormat(droidFlavour),
  // One entry per Letta agent in ~/.letta/settings.json; an emptied `mcpServers` goes with it (edit-letta-settings.ts).
  letta: { add: addLettaEntry, remove: removeLettaEntry, read: readLettaEntry, plain: parseJsonConfig, containers: () => [], removeEmpty: (t) => t },
};

export { MCP_RECORD_FILE } from '../plugins/baton-file.js';

export interface McpInstallOptions {
  agent: AgentId | 'all';
  endpoint: McpEndpoint;
  environment: Environment;
  dryRun?: boolean;
  /** Baton's data dir, where the install record lives (default: the environment's). */
  dataDir?: string;
  /** For backup names; tests pin it. */
  now?: () => Date;
}

export function selectedAgents(agent: AgentId | 'all'): AgentId[] {
  return agent === 'all' ? AGENTS.filter((a) => CONFIG_FORMATS[a] || a === 'pi') : [agent];
}

/** Whether Letta's settings list an agent to register Baton with (an unreadable file: let the install say why). */
function lettaHasAgents(environment: Environment): boolean {
  const file = mcpConfigFile('letta', environment);
  try {
    return lettaAgentCount(readConfigFile(file).text, file) > 0;
  } catch {
    return fs.existsSync(file);
  }
}

export function installMcp(options: McpInstallOptions): McpInstallOutcome[] {
  return selectedAgents(options.agent).flatMap((agent) => {
    // "All agents" leaves out a Letta Code with no agent yet (its MCP servers are per agent); --agent letta says why.
    if (agent === 'letta' && options.agent === 'all' && !lettaHasAgents(options.environment)) return [];
    // Likewise a cn without its local config.yaml (it runs on its Hub config; --agent continue says why).
    if (agent === 'continue' && options.agent === 'all' && !fs.existsSync(mcpConfigFile('continue', options.environment))) return [];
    // pi has no MCP client: Baton's tools reach it through Baton's pi extension.
    if (agent === 'pi') return [installPiExtension(options)];
    const outcome = applyChange(agent, options, 'install');
    return agent === 'codex' && outcome.ok ? [outcome, applyCodexEnv(options, 'install')] : [outcome];
  });
}

export function uninstallMcp(options: McpInstallOptions): McpInstallOutcome[] {
  return selectedAgents(options.agent).flatMap((agent) => {
    if (agent === 'pi') return [uninstallPiExtension(options)];
    const outcome = applyChange(agent, options, 'uninstall');
    return agent === 'codex' && outcome.ok ? [outcome, applyCodexEnv(options, 'uninstall')] : [outcome];
  });
}

function recordsFor(options: McpInstallOptions): InstallRecords {
  return mcpRecords(options.environment, options.dataDir);
}

/** Codex's token line in $CODEX_HOME/.env (see codex-env.ts): written private, removed on uninstall. */
function applyCodexEnv(options: McpInstallOptions, action: 'install' | 'uninstall'): McpInstallOutcome {
  const file = codexEnvFile(options.environment);
  const token = options.endpoint.token;
  const outcome = changeConfig({
    file,
    action,
    editor: { add: (t) => codexEnvWith(t, token), remove: codexEnvWithout, has: codexEnvHasLine, entryHoldsSecret: codexEnvHasLine },
    records: recordsFor(options),
    entry: 'codex-env',
    secret: token,
    dryRun: options.dryRun,
    now: options.now,
  });
  const base = { agent: 'codex' as const, file, backup: outcome.backup, changed: outcome.ok && outcome.kind !== 'unchanged' && !options.dryRun, diff: outcome.diff, ok: outcome.ok };
  if (!outcome.ok) return { ...base, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') {
    return { ...base, message: `${file} ${action === 'install' ? 'already holds the token' : 'has no Baton line'}; unchanged.${outcome.tightened ? ' Made it private (mode 0600).' : ''}` };
  }
  if (options.dryRun) return { ...base, message: `Would ${action === 'install' ? 'write the token for Codex to' : 'remove the token from'} ${file} (dry run).` };
  return { ...base, message: action === 'install' ? `Codex reads the token from ${file} (mode 0600) as $BATON_MCP_TOKEN.` : `Removed the token from ${file}.` };
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
      const text = readConfigFile(file).text;
      const entry = format.read(text, options.endpoint.name, file);
      const installed = entry !== undefined;
      const secretKept = agent !== 'codex' || codexEnvHolds(readCodexEnv(options.environment), options.endpoint.token);
      return { agent, file, installed, current: installed && secretKept && format.add(text, options.endpoint, file) === text, registeredUrl: urlOf(entry) };
    } catch {
      return none;
    }
  });
}

/** Baton's entry carries a bearer token of its own (not a `{file:…}` reference), perhaps an older one. */
function entryHoldsToken(entry: unknown): boolean {
  return entry !== undefined && /Bearer (?!\{file:)/.test(JSON.stringify(entry));
}

function applyChange(agent: AgentId, options: McpInstallOptions, action: 'install' | 'uninstall'): McpInstallOutcome {
  const file = mcpConfigFile(agent, options.environment);
  const base = { agent, file, backup: null, changed: false };
  const format = CONFIG_FORMATS[agent];
  // pi is reached through its extension before this; the agents left have no MCP entry Baton writes yet.
  if (!format) return { ...base, ok: false, diff: '', message: `Baton writes no MCP entry for ${AGENT_LABELS[agent]} yet; nothing changed (hand off by pasting the brief).` };
  const { endpoint } = options;
  const outcome = changeConfig({
    file,
    action,
    editor: {
      add: (t) => format.add(t, endpoint, file),
      remove: (t) => format.remove(t, endpoint.name, file),
      has: (t) => format.read(t, endpoint.name, file) !== undefined,
      plain: (t) => format.plain(t, file),
      containers: (t) => format.containers(t, endpoint.name, file),
      removeEmpty: (t, at) => format.removeEmpty(t, at, file),
      entryHoldsSecret: (t) => entryHoldsToken(format.read(t, endpoint.name, file)),
    },
    records: recordsFor(options),
    entry: `mcp:${endpoint.name}`,
    // A running Claude Code rewrites ~/.claude.json often, holding this lock while it does; Cline
    // 3.0 takes the same `<file>.lock` folder (stale after 10 s) around its own MCP settings writes.
    lock: agent === 'claude' || agent === 'cline',
    secret: endpoint.token,
    dryRun: options.dryRun,
    now: options.now,
  });
  const { diff } = outcome;
  if (!outcome.ok) return { ...base, ok: false, diff, message: outcome.error ?? `Could not update ${file}.` };
  if (outcome.kind === 'unchanged') {
    if (action === 'uninstall' && !fs.existsSync(file)) return { ...base, ok: true, diff, message: `${file} does not exist; nothing to remove.` };
    const message = action === 'install' ? `${file} already registers "${endpoint.name}"; unchanged.` : `${file} has no "${endpoint.name}" entry; unchanged.`;
    return { ...base, ok: true, diff, message: outcome.tightened ? `${message} Made it private (mode 0600): it holds Baton's token.` : message };
  }
  const what = action === 'install' ? `register "${endpoint.name}" (${endpoint.url})` : `remove "${endpoint.name}"`;
  if (options.dryRun) return { ...base, ok: true, diff, message: `Would ${what} in ${file} (dry run: nothing written).` };
  const done =
    action === 'install'
      ? `Registered "${endpoint.name}" (${endpoint.url})`
      : outcome.kind === 'deleted'
        ? `Removed "${endpoint.name}" and ${file}, which Baton had created`
        : outcome.kind === 'restored'
          ? `Removed "${endpoint.name}": ${file} holds its bytes from before the install again`
          : `Removed "${endpoint.name}"`;
  const cleaned = outcome.removedBackups?.length ? `; deleted ${outcome.removedBackups.length} backup(s) that held Baton's token` : '';
  const backup = outcome.backup;
  return { ...base, changed: true, backup, ok: true, diff, message: `${done}${action === 'install' ? ` in ${file}` : ''}${backup ? `; backup at ${backup}` : ''}${cleaned}.` };
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
