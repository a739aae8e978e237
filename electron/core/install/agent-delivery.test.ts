/**
 * The per-agent delivery record against real temp configs: every agent answers "no" in a fresh
 * home, "yes" once its own delivery is installed the way Baton installs it, "no" again after the
 * uninstall; and the record agrees with the installers (MCP config formats, hook targets).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { makeTempDir } from '../../../testing/fixture-home.js';
import type { Environment } from '../paths.js';
import { AGENT_DELIVERY, handoffDeliveryInfo, receivesHandoffsByItself, type DeliveryContext } from './agent-delivery.js';
import { mcpEndpoint } from './endpoint.js';
import { hookRuntimeFor } from './hooks/hook-command.js';
import { HOOK_TARGETS } from './hooks/hook-targets.js';
import { installHooks, uninstallHooks } from './hooks/hooks-installer.js';
import { CONFIG_FORMATS, installMcp, uninstallMcp } from './mcp-entries/mcp-installer.js';
import { installOpencodePlugin, installPlugin, uninstallOpencodePlugin, uninstallPlugin } from './plugins/opencode-plugin.js';
import { installClinePlugin, uninstallClinePlugin } from './plugins/cline-plugin.js';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';

interface Expected {
  mcp: string;
  via: 'hook' | 'plugin' | 'extension' | 'paste';
  /** The file the installed delivery lives in (relative to home). */
  file: string;
  install(context: DeliveryContext): void;
  uninstall(context: DeliveryContext): void;
}

const hooks = (agent: AgentId, file: string, mcp: string): Expected => ({
  mcp,
  via: 'hook',
  file,
  install: ({ environment, dataDir }) => expect(installHooks({ agent, environment, dataDir, runtime: hookRuntimeFor(environment, dataDir) })[0]).toMatchObject({ ok: true, changed: true }),
  uninstall: ({ environment, dataDir }) => expect(uninstallHooks({ agent, environment, dataDir, runtime: hookRuntimeFor(environment, dataDir) })[0]).toMatchObject({ ok: true }),
});

/** An agent Baton installs nothing into yet: the brief is pasted. */
const pasted: Expected = { mcp: 'none', via: 'paste', file: '', install: () => undefined, uninstall: () => undefined };

/** Each agent's answer, written out: adding an agent means adding a line here too. */
const EXPECTED: Record<AgentId, Expected> = {
  claude: hooks('claude', '.claude/settings.json', 'config-file:json'),
  codex: hooks('codex', '.codex/hooks.json', 'config-file:toml'),
  hermes: hooks('hermes', '.hermes/config.yaml', 'config-file:yaml'),
  gemini: hooks('gemini', '.gemini/settings.json', 'config-file:json'),
  qwen: hooks('qwen', '.qwen/settings.json', 'config-file:json'),
  opencode: {
    mcp: 'config-file:json',
    via: 'plugin',
    file: '.config/opencode/plugins/baton.js',
    install: ({ environment, dataDir }) =>
      expect(installOpencodePlugin({ environment, endpoint: { ...mcpEndpoint(8765, TOKEN), tokenFile: path.join(dataDir, 'token') } })).toMatchObject({ ok: true, changed: true }),
    uninstall: ({ environment }) => expect(uninstallOpencodePlugin({ environment })).toMatchObject({ ok: true, changed: true }),
  },
  pi: {
    mcp: 'extension',
    via: 'extension',
    file: '.pi/agent/extensions/baton.ts',
    install: ({ environment, dataDir }) => expect(installMcp({ agent: 'pi', endpoint: mcpEndpoint(8765, TOKEN), environment, dataDir })[0]).toMatchObject({ ok: true, changed: true }),
    uninstall: ({ environment, dataDir }) => expect(uninstallMcp({ agent: 'pi', endpoint: mcpEndpoint(8765, TOKEN), environment, dataDir })[0]).toMatchObject({ ok: true, changed: true }),
  },
  cline: {
    mcp: 'config-file:json',
    via: 'plugin',
    file: '.cline/plugins/baton.js',
    install: ({ environment, dataDir }) => expect(installClinePlugin({ environment, dataDir })).toMatchObject({ ok: true, changed: true }),
    uninstall: ({ environment, dataDir }) => expect(uninstallClinePlugin({ environment, dataDir })).toMatchObject({ ok: true, changed: true }),
  },
  kilo: {
    mcp: 'config-file:json',
    via: 'plugin',
    file: '.config/kilo/plugins/baton.js',
    install: ({ environment, dataDir }) =>
      expect(installPlugin('kilo', { environment, endpoint: { ...mcpEndpoint(8765, TOKEN), tokenFile: path.join(dataDir, 'token') } })).toMatchObject({ ok: true, changed: true }),
    uninstall: ({ environment }) => expect(uninstallPlugin('kilo', { environment })).toMatchObject({ ok: true, changed: true }),
  },
  copilot: hooks('copilot', '.copilot/hooks/baton.json', 'config-file:json'),
  continue: { ...pasted, mcp: 'config-file:yaml' },
  droid: hooks('droid', '.factory/settings.json', 'config-file:json'),
  letta: hooks('letta', '.letta/settings.json', 'config-file:json'),
};

describe('AGENT_DELIVERY: how each agent receives a handoff by itself', () => {
  let tmp: { dir: string; cleanup(): void };
  let context: DeliveryContext;
  beforeEach(() => {
    tmp = makeTempDir('baton-delivery-');
    const environment: Environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
    context = { environment, dataDir: path.join(tmp.dir, 'baton') };
  });
  afterEach(() => tmp.cleanup());

  it.each(AGENTS)('%s: no before its delivery is installed, yes after, no after the uninstall', (agent) => {
    const expected = EXPECTED[agent];
    const delivery = AGENT_DELIVERY[agent];
    const mcp = delivery.mcp.via === 'config-file' ? `config-file:${delivery.mcp.format}` : delivery.mcp.via;
    expect({ mcp, via: delivery.handoff.via }).toEqual({ mcp: expected.mcp, via: expected.via });
    if (expected.via === 'paste') {
      // Says why the brief is pasted, and never claims to deliver by itself.
      expect(delivery.handoff.what.length).toBeGreaterThan(0);
      expect(receivesHandoffsByItself(context, agent)).toBe(false);
      if (expected.mcp !== 'none') return;
      // Installing MCP for it changes nothing, and says so.
      const [outcome] = installMcp({ agent, endpoint: mcpEndpoint(8765, TOKEN), environment: context.environment, dataDir: context.dataDir });
      expect(outcome).toMatchObject({ ok: false, changed: false });
      expect(outcome!.message).toMatch(/no MCP entry/);
      expect(fs.existsSync(context.environment.home)).toBe(false);
      return;
    }

    expect(receivesHandoffsByItself(context, agent)).toBe(false);
    expected.install(context);
    expect(fs.existsSync(path.join(context.environment.home, expected.file))).toBe(true);
    expect(receivesHandoffsByItself(context, agent)).toBe(true);
    expected.uninstall(context);
    expect(receivesHandoffsByItself(context, agent)).toBe(false);
  });

  it('a start-up hook written for another Baton (another data dir) does not count as installed', () => {
    const other: DeliveryContext = { ...context, dataDir: path.join(tmp.dir, 'other baton') };
    EXPECTED.claude.install(other);
    expect(receivesHandoffsByItself(other, 'claude')).toBe(true);
    expect(receivesHandoffsByItself(context, 'claude')).toBe(false);
  });

  it('agrees with the installers: MCP config formats and hook targets', () => {
    for (const agent of AGENTS) {
      const { mcp, handoff } = AGENT_DELIVERY[agent];
      expect(mcp.via === 'config-file', agent).toBe(CONFIG_FORMATS[agent] !== undefined);
      expect(handoff.via === 'hook', agent).toBe(HOOK_TARGETS[agent] !== undefined);
    }
  });

  it('tells the API how to set delivery up, without the check', () => {
    expect(handoffDeliveryInfo('codex')).toEqual({ via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent codex', settings: 'Settings → Hooks' });
    expect(handoffDeliveryInfo('hermes')).toMatchObject({ what: "Baton's pre_llm_call hook" });
    expect(handoffDeliveryInfo('opencode')).toEqual({ via: 'plugin', what: "Baton's OpenCode plugin", command: 'baton mcp install --agent opencode --plugin', settings: null });
    expect(handoffDeliveryInfo('kilo')).toEqual({ via: 'plugin', what: "Baton's Kilo Code plugin", command: 'baton mcp install --agent kilo --plugin', settings: null });
    expect(handoffDeliveryInfo('continue')).toMatchObject({ via: 'paste', what: expect.stringContaining('no start-up hook') });
    expect(handoffDeliveryInfo('droid')).toEqual({ via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent droid', settings: 'Settings → Hooks' });
    expect(handoffDeliveryInfo('pi')).toEqual({ via: 'extension', what: "Baton's pi extension", command: 'baton mcp install --agent pi', settings: 'Settings → MCP endpoint' });
  });
});
