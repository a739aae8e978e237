/**
 * Continue natively into the real Kilo Code 7.7.7 (offline, the mock LLM) through its own
 * `kilo import` (OpenCode's importer, kept by the fork); the steps are the OpenCode family's (see
 * testing/agents/continue-opencode-family.ts), resumed with `kilo run --session <id>`.
 */
import { kiloDbPath, kiloWriter } from '../../electron/core/continue/targets/kilo-writer.js';
import { createOpenCodeAdapter } from '../../electron/core/sources/opencode/index.js';
import { openCodeFamilyContinueTest } from '../../testing/agents/continue-opencode-family.js';

openCodeFamilyContinueTest({
  target: 'kilo',
  label: 'Kilo Code',
  writer: kiloWriter,
  dbPath: kiloDbPath,
  adapter: (roots) => createOpenCodeAdapter(roots, {}, 'kilo'),
  resume: (id) => ['kilo', '--session', id],
});
