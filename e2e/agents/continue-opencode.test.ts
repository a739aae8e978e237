/**
 * Continue natively into the real OpenCode 1.18 (offline, the mock LLM) through its own
 * `opencode import`; the steps are the OpenCode family's (see testing/agents/continue-opencode-family.ts),
 * resumed with `opencode run -s <id>`.
 */
import { openCodeDbPath, openCodeWriter } from '../../electron/core/continue/targets/opencode-writer.js';
import { createOpenCodeAdapter } from '../../electron/core/sources/opencode/index.js';
import { openCodeFamilyContinueTest } from '../../testing/agents/continue-opencode-family.js';

openCodeFamilyContinueTest({
  target: 'opencode',
  label: 'OpenCode',
  writer: openCodeWriter,
  dbPath: openCodeDbPath,
  adapter: (roots) => createOpenCodeAdapter(roots),
  resume: (id) => ['opencode', '-s', id],
});
