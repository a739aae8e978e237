/**
 * One agent's throw-away HOME wired to the mock LLM, by agent name: what every real-agent test needs
 * before it can run the CLI.
 */
import type { AgentCliName } from './agent-clis.js';
import { claudeEnv } from './homes/claude.js';
import { codexEnv } from './homes/codex.js';
import { geminiEnv } from './homes/gemini.js';
import { kiloEnv } from './homes/kilo.js';
import { opencodeEnv } from './homes/opencode.js';
import { piEnv } from './homes/pi.js';
import { qwenEnv } from './homes/qwen.js';
import { copilotEnv } from './homes/copilot.js';
import { continueConfigFile, continueEnv } from './homes/continue.js';
import { DROID_MODEL, droidEnv } from './homes/droid.js';
import { LETTA_MODEL, lettaEnv } from './homes/letta.js';
import { clineEnv } from './homes/cline.js';

export type RealAgent = Exclude<AgentCliName, 'ccusage'>;

const ENVS: Record<RealAgent, (home: string, mockUrl: string) => NodeJS.ProcessEnv> = {
  claude: claudeEnv,
  codex: codexEnv,
  opencode: opencodeEnv,
  gemini: geminiEnv,
  qwen: qwenEnv,
  pi: piEnv,
  kilo: kiloEnv,
  copilot: copilotEnv,
  continue: continueEnv,
  droid: droidEnv,
  letta: lettaEnv,
  cline: clineEnv,
};

/** Writes the agent's config into `home` (once) and returns the environment to run it with. */
export function agentEnv(agent: RealAgent, home: string, mockUrl: string): NodeJS.ProcessEnv {
  return ENVS[agent](home, mockUrl);
}

/** The mock's MOCK_AGENT for CLIs whose wire API alone does not tell them apart. */
export const MOCK_AGENT: Partial<Record<RealAgent, string>> = { qwen: 'qwen', pi: 'pi' };

/** The one-shot prompt invocation of each CLI (`home`: Continue's `cn` is given its config file). */
export function promptArgs(agent: RealAgent, prompt: string, home = process.env.HOME ?? ''): string[] {
  switch (agent) {
    case 'claude':
      return ['-p', prompt, '--allowedTools', 'Bash,Read,Write,Edit'];
    case 'codex':
      return ['exec', '--skip-git-repo-check', prompt];
    case 'opencode':
    case 'kilo':
      return ['run', prompt];
    case 'gemini':
    case 'qwen':
      return ['--yolo', '-p', prompt];
    case 'pi':
      return ['-p', prompt];
    case 'copilot':
      return ['-p', prompt, '--allow-all-tools'];
    case 'continue':
      return ['--config', continueConfigFile(home), '--auto', '-p', prompt];
    case 'droid':
      return ['exec', '-m', DROID_MODEL, '--auto', 'low', prompt];
    case 'letta':
      return ['-m', LETTA_MODEL, '-p', prompt];
    case 'cline':
      // One-shot, act mode; Cline auto-approves tools by default.
      return [prompt];
  }
}
