/**
 * One native writer per agent; null where "continue natively" into that agent is not built yet.
 * A new agent in AGENTS does not compile without an entry here.
 */
import type { AgentId } from '../../../shared/model.js';
import type { NativeWriter } from './native-writer.js';
import { claudeWriter } from './targets/claude-writer.js';
import { copilotWriter } from './targets/copilot-writer.js';
import { clineWriter } from './targets/cline-writer.js';
import { codexWriter } from './targets/codex-writer.js';
import { continueWriter } from './targets/continue-writer.js';
import { droidWriter } from './targets/droid-writer.js';
import { hermesWriter } from './targets/hermes-writer.js';
import { kiloWriter } from './targets/kilo-writer.js';
import { geminiWriter } from './targets/gemini-writer.js';
import { openCodeWriter } from './targets/opencode-writer.js';
import { piWriter } from './targets/pi-writer.js';
import { qwenWriter } from './targets/qwen-writer.js';
import { lettaWriter } from './targets/letta-writer.js';

export const NATIVE_WRITERS: Record<AgentId, NativeWriter | null> = {
  claude: claudeWriter,
  codex: codexWriter,
  hermes: hermesWriter,
  opencode: openCodeWriter,
  gemini: geminiWriter,
  qwen: qwenWriter,
  pi: piWriter,
  cline: clineWriter,
  copilot: copilotWriter,
  kilo: kiloWriter,
  continue: continueWriter,
  droid: droidWriter,
  letta: lettaWriter,
};

export function nativeWriterFor(agent: AgentId): NativeWriter | null {
  return NATIVE_WRITERS[agent];
}
