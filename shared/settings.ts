/**
 * User settings: one zod schema is the source of truth for the file format, the defaults and
 * the settings UI. Unknown keys are dropped, missing keys take their defaults, so an older or
 * newer settings file still loads.
 */
import { z } from 'zod';
import { AGENTS, BRIEF_TARGETS, type AgentId } from './model.js';

// Re-exported: the targets live in the zod-free model so the CLI can name them without loading zod.
export { BRIEF_TARGETS, type BriefTarget } from './model.js';

export const THEMES = ['system', 'light', 'dark'] as const;

export const AgentSourceSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  /** null = use the detected default location. */
  path: z.string().min(1).nullable().default(null),
});
export type AgentSourceSettings = z.infer<typeof AgentSourceSettingsSchema>;

const agentDefaults = { enabled: true, path: null };

/** ssh options that run local programs, open ports or change how host keys are checked. */
const UNSAFE_SSH_OPTION = /ProxyCommand|LocalCommand|KnownHostsCommand|StrictHostKeyChecking|UserKnownHostsFile|GlobalKnownHostsFile|HostKeyAlias|VerifyHostKeyDNS|Forward|Tunnel|ControlPath|ControlMaster/i;
/** Flags allowed as extra arguments: config file, identity, jump host, user, -o, port, ciphers/MACs, IPv4/6, compression, verbose. */
const ALLOWED_SSH_FLAG = /^-(?:[FiJlopcm].*|[46Cv]+)$/;
const isSafeSshArg = (arg: string) => !UNSAFE_SSH_OPTION.test(arg) && (!arg.startsWith('-') || ALLOWED_SSH_FLAG.test(arg));

/** A machine whose sessions Baton reads over the user's own OpenSSH (see shared/machines.ts). */
export const MachineSettingsSchema = z.object({
  /** An alias from ~/.ssh/config or `user@host[:port]`. */
  destination: z.string().min(1).max(300).regex(/^[^\s-][^\s]*$/, 'an ssh alias or user@host[:port], no spaces, not starting with -'),
  /** Shown in session ids (`label/agent:id`); default: the host part of the destination. */
  label: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).nullable().default(null),
  enabled: z.boolean().default(true),
  /** Agents to read there; null = every agent Baton reads on that host. */
  agents: z.array(z.enum(AGENTS)).nullable().default(null),
  /** How to start Baton there (a command line run by the host's shell). */
  command: z.string().min(1).default('baton'),
  /**
   * Extra `ssh` arguments (e.g. `-F`, `-i`), passed before the destination. Options that run local
   * commands or loosen host key checking are refused here: settings can be written through the API,
   * and that must not become a way to run programs or accept any host (put such things in ~/.ssh/config).
   */
  sshArgs: z
    .array(z.string().max(1000).refine(isSafeSshArg, 'this ssh option is not allowed here; set it in ~/.ssh/config'))
    .max(20)
    .default([]),
});
export type MachineSettings = z.infer<typeof MachineSettingsSchema>;

export const SettingsSchema = z.object({
  agents: z
    .object({
      claude: AgentSourceSettingsSchema.default(agentDefaults),
      codex: AgentSourceSettingsSchema.default(agentDefaults),
      opencode: AgentSourceSettingsSchema.default(agentDefaults),
      hermes: AgentSourceSettingsSchema.default(agentDefaults),
      gemini: AgentSourceSettingsSchema.default(agentDefaults),
      qwen: AgentSourceSettingsSchema.default(agentDefaults),
      pi: AgentSourceSettingsSchema.default(agentDefaults),
      cline: AgentSourceSettingsSchema.default(agentDefaults),
      kilo: AgentSourceSettingsSchema.default(agentDefaults),
      copilot: AgentSourceSettingsSchema.default(agentDefaults),
      continue: AgentSourceSettingsSchema.default(agentDefaults),
      droid: AgentSourceSettingsSchema.default(agentDefaults),
      letta: AgentSourceSettingsSchema.default(agentDefaults),
    })
    .default(Object.fromEntries(AGENTS.map((a) => [a, agentDefaults])) as Record<AgentId, typeof agentDefaults>),
  hotkey: z.string().min(1).default('CommandOrControl+Shift+B'),
  defaultTarget: z.enum(BRIEF_TARGETS).default('generic'),
  briefBudget: z.number().int().min(500).max(200_000).default(6000),
  redact: z.boolean().default(true),
  port: z.number().int().min(1024).max(65535).default(8765),
  launchAtLogin: z.boolean().default(false),
  /** Glob patterns over session cwd; matching sessions are hidden everywhere. */
  excludedProjects: z.array(z.string().min(1)).default([]),
  theme: z.enum(THEMES).default('system'),
  /**
   * Prices (USD per million tokens) and context windows that add to or override Baton's table, by
   * model name (e.g. `{"my-model": {"input": 1, "output": 4}}`).
   */
  modelPricing: z
    .record(
      z.string().min(1).max(200),
      z.object({
        input: z.number().min(0),
        output: z.number().min(0),
        cacheRead: z.number().min(0).optional(),
        cacheWrite: z.number().min(0).optional(),
        contextWindow: z.number().int().positive().optional(),
      }),
    )
    .default({}),
  /** Notify when a live session's context fills past the threshold or an agent hits its usage limit. */
  usageAlerts: z.boolean().default(true),
  /** Context fill (percent of the model's window) at which a live session is announced. */
  usageAlertContextPercent: z.number().int().min(10).max(100).default(85),
  /**
   * Windows: WSL distros whose agent stores are read too, through `\\wsl.localhost\<distro>\…`
   * (`home` is the Linux home there, e.g. /home/ana). Ignored on other platforms.
   */
  wslDistros: z
    .array(z.object({ distro: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/), home: z.string().regex(/^\/[^\0]*$/), enabled: z.boolean().default(true) }))
    .default([]),
  /** Other machines (SSH hosts) whose agent sessions Baton reads too. */
  machines: z.array(MachineSettingsSchema).default([]),
  /** Clear the clipboard this many seconds after copying a brief; 0 = never. */
  clipboardClearSeconds: z.number().int().min(0).max(3600).default(0),
  /** A handoff not received by its target agent within this many hours expires (is never injected). */
  handoffExpiryHours: z.number().int().min(1).max(720).default(24),
});
export type Settings = z.infer<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

/**
 * zod 4 applies a field's default even inside `.partial()`, which would turn `{ theme: 'dark' }`
 * into a patch resetting every other setting. A patch's absent keys must stay absent, so its
 * fields are the settings' fields with their defaults unwrapped.
 */
function withoutDefaults<S extends z.ZodRawShape>(shape: S) {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [key, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional()]),
  ) as unknown as { [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer T> ? T : S[K]> };
}

/** A partial update as the settings UI sends it; agents are merged per agent. */
export const SettingsPatchSchema = z.object({
  ...withoutDefaults(SettingsSchema.omit({ agents: true }).shape),
  agents: z.partialRecord(z.enum(AGENTS), z.object(withoutDefaults(AgentSourceSettingsSchema.shape))).optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  const { agents, ...rest } = patch;
  const next: Settings = { ...current, ...stripUndefined(rest) };
  if (agents) {
    next.agents = { ...current.agents };
    for (const agent of AGENTS) {
      const change = agents[agent as AgentId];
      if (change) next.agents[agent] = { ...current.agents[agent], ...stripUndefined(change) };
    }
  }
  return SettingsSchema.parse(next);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
