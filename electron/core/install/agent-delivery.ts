/**
 * How Baton reaches each agent, one entry per agent so the compiler asks for an eighth: how Baton's
 * MCP endpoint is registered with it, what delivers a pending handoff when one of its sessions
 * starts, what installs that, and whether it is installed now. "Does the target receive a handoff
 * by itself?" and the texts that say how to make it so are read from here.
 */
import type { AgentId } from '../../../shared/model.js';
import type { HandoffDeliveryInfo } from '../../../shared/api-types.js';
import type { Environment } from '../paths.js';
import { hookRuntimeFor } from './hooks/hook-command.js';
import { HOOK_TARGETS } from './hooks/hook-targets.js';
import { hooksStatus } from './hooks/hooks-installer.js';
import { opencodePluginInstalled, pluginInstalled } from './plugins/opencode-plugin.js';
import { clinePluginInstalled } from './plugins/cline-plugin.js';
import { piExtensionDeliversHandoffs } from './plugins/pi-extension.js';

/** Where Baton's MCP endpoint goes: an entry in the agent's MCP config file, or Baton's own extension (pi has no MCP client). */
export type McpRegistration = { via: 'config-file'; format: 'json' | 'toml' | 'yaml' } | { via: 'extension' } | { via: 'none' };

export interface DeliveryContext {
  environment: Environment;
  /** Baton's data dir (a hook command names it when it is not the default). */
  dataDir: string;
}

/** What delivers a pending handoff at session start, and what installs it. */
export interface HandoffDelivery extends HandoffDeliveryInfo {
  installed(context: DeliveryContext): boolean;
}

export interface AgentDelivery {
  mcp: McpRegistration;
  handoff: HandoffDelivery;
}

/** A start-up hook `baton hooks install` writes into the agent's config (Settings → Hooks does the same). */
function startupHook(agent: AgentId): HandoffDelivery {
  const target = HOOK_TARGETS[agent];
  const spec = target?.specs.find((s) => s.baton === 'session-start');
  if (!target || !spec) throw new Error(`${agent}: no session-start hook in HOOK_TARGETS`);
  return {
    via: 'hook',
    what: `Baton's ${spec.event} hook`,
    command: `baton hooks install --agent ${agent}`,
    settings: 'Settings → Hooks',
    installed: ({ environment, dataDir }) => {
      const [status] = hooksStatus({ agent, environment, runtime: hookRuntimeFor(environment, dataDir), dataDir });
      return status?.events.find((e) => e.event === spec.event)?.current ?? false;
    },
  };
}

/** An agent Baton installs nothing into: the brief is pasted, for the reason given. */
function pasted(why: string): HandoffDelivery {
  return { via: 'paste', what: why, command: '', settings: null, installed: () => false };
}

export const AGENT_DELIVERY: Record<AgentId, AgentDelivery> = {
  claude: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('claude') },
  codex: { mcp: { via: 'config-file', format: 'toml' }, handoff: startupHook('codex') },
  opencode: {
    mcp: { via: 'config-file', format: 'json' },
    // OpenCode runs no shell hooks: Baton's plugin injects the handoff when a session starts.
    handoff: {
      via: 'plugin',
      what: "Baton's OpenCode plugin",
      command: 'baton mcp install --agent opencode --plugin',
      settings: null,
      installed: ({ environment }) => opencodePluginInstalled(environment),
    },
  },
  hermes: { mcp: { via: 'config-file', format: 'yaml' }, handoff: startupHook('hermes') },
  gemini: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('gemini') },
  qwen: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('qwen') },
  pi: {
    // pi has no MCP client and no shell hooks: Baton's pi extension offers the tools and asks for the handoff.
    mcp: { via: 'extension' },
    handoff: {
      via: 'extension',
      what: "Baton's pi extension",
      command: 'baton mcp install --agent pi',
      settings: 'Settings → MCP endpoint',
      installed: ({ environment }) => piExtensionDeliversHandoffs(environment),
    },
  },
  cline: {
    mcp: { via: 'config-file', format: 'json' },
    // Cline 3.0 runs its hooks-folder files detached and drops their output at run start: Baton's
    // plugin (awaited `beforeRun`, its context joins the first request) delivers the handoff.
    handoff: {
      via: 'plugin',
      what: "Baton's Cline plugin",
      command: 'baton mcp install --agent cline --plugin',
      settings: null,
      installed: ({ environment }) => clinePluginInstalled(environment),
    },
  },
  kilo: {
    mcp: { via: 'config-file', format: 'json' },
    // Kilo Code (an OpenCode fork) loads Baton's OpenCode plugin from ~/.config/kilo/plugins.
    handoff: {
      via: 'plugin',
      what: "Baton's Kilo Code plugin",
      command: 'baton mcp install --agent kilo --plugin',
      settings: null,
      installed: ({ environment }) => pluginInstalled('kilo', environment),
    },
  },
  copilot: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('copilot') },
  continue: {
    mcp: { via: 'config-file', format: 'yaml' },
    // Checked in cn 1.5.47's bundle: it loads Claude-style hooks from ~/.continue/settings.json but
    // never fires an event; rules (config.yaml, ~/.continue/rules) are fixed text in every session.
    handoff: pasted('Continue cn runs no start-up hook or plugin (1.5.47 reads hooks from settings.json but never runs them; its rules files are the same text in every session)'),
  },
  droid: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('droid') },
  letta: { mcp: { via: 'config-file', format: 'json' }, handoff: startupHook('letta') },
};

/** Whether `agent` picks up a pending handoff at session start without a paste. */
export function receivesHandoffsByItself(context: DeliveryContext, agent: AgentId): boolean {
  return AGENT_DELIVERY[agent].handoff.installed(context);
}

/** The delivery as the API reports it (no functions). */
export function handoffDeliveryInfo(agent: AgentId): HandoffDeliveryInfo {
  const { via, what, command, settings } = AGENT_DELIVERY[agent].handoff;
  return { via, what, command, settings };
}
