// The layer rules are part of the architecture: prove that a wrong import fails the lint.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** Source lines with at least one boundary error. */
async function offendingLines(file: string, code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  const lines = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
  return [...new Set(lines)].sort();
}

describe('layer boundaries', () => {
  it('rejects electron in the core', async () => {
    const errors = await importErrors('electron/core/sources/bad.ts', "import { app } from 'electron';\nexport const x = app;\n");
    expect(errors.join('\n')).toMatch(/never imports electron/);
  });

  it('rejects Node built-ins in shared/', async () => {
    const errors = await importErrors('shared/bad.ts', "import fs from 'node:fs';\nexport const x = fs;\n");
    expect(errors.join('\n')).toMatch(/shared\/ is environment-neutral/);
    const bare = await importErrors('shared/bad2.ts', "import path from 'path';\nexport const x = path;\n");
    expect(bare.length).toBeGreaterThan(0);
  });

  it('rejects core and Node imports in the renderer', async () => {
    const lines = await offendingLines(
      'renderer/src/bad.ts',
      "import { createBatonCore } from '../../electron/core/service.js';\nimport fs from 'node:fs';\nexport const x = [createBatonCore, fs];\n",
    );
    expect(lines).toEqual([1, 2]);
  });

  it('accepts the allowed directions', async () => {
    expect(await importErrors('renderer/src/ok.ts', "import { AGENTS } from '../../shared/model.js';\nexport const x = AGENTS;\n")).toEqual([]);
    expect(await importErrors('electron/core/ok.ts', "import fs from 'node:fs';\nimport { AGENTS } from '../../shared/model.js';\nexport const x = [fs, AGENTS];\n")).toEqual([]);
    expect(await importErrors('electron/main-ok.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });
});

describe('the core floors', () => {
  const floorError = /is on floor \d+/;

  it('keeps sources/ below remote, index, ingest and install', async () => {
    const code = [
      "import { RemoteHost } from '../remote/remote-host.js';",
      "import { SessionIndex } from '../index/session-index.js';",
      "import { IngestService } from '../ingest/ingest-service.js';",
      "import { AGENT_DELIVERY } from '../install/agent-delivery.js';",
      "import { tailJsonl } from './jsonl/jsonl-tail.js';",
      'export const x = [RemoteHost, SessionIndex, IngestService, AGENT_DELIVERY, tailJsonl];',
    ].join('\n');
    expect(await offendingLines('electron/core/sources/claude/bad.ts', code)).toEqual([1, 2, 3, 4]);
    expect((await importErrors('electron/core/sources/bad.ts', code)).every((m) => floorError.test(m))).toBe(true);
  });

  it('keeps install/ below handoff and mcp, and every floor below the composition root', async () => {
    const code = [
      "import { handOff } from '../handoff/hand-off.js';",
      "import { createMcpRoute } from '../mcp/mcp-route.js';",
      "import { createBatonCore } from '../service.js';",
      "import { writeConfigFile } from './config/config-file.js';",
      'export const x = [handOff, createMcpRoute, createBatonCore, writeConfigFile];',
    ].join('\n');
    expect(await offendingLines('electron/core/install/bad.ts', code)).toEqual([1, 2, 3]);
  });

  it('accepts imports from the same floor and the floors below', async () => {
    const code = "import { gitSnapshot } from '../git/git-snapshot.js';\nimport { SessionIndex } from '../index/session-index.js';\nexport const x = [gitSnapshot, SessionIndex];\n";
    expect(await importErrors('electron/core/briefs/ok.ts', code)).toEqual([]);
  });

  it('keeps test support out of shipped files, and electron out of the CLI', async () => {
    expect(await offendingLines('electron/core/index/bad.ts', "import { x } from '../../../testing/mini-index.js';\nexport const y = x;\n")).toEqual([1]);
    expect(await offendingLines('electron/core/bad.ts', "import { x } from '../../e2e/support/fixtures.js';\nexport const y = x;\n")).toEqual([1]);
    expect(await offendingLines('renderer/src/bad.ts', "import { x } from '../../testing/renderer/scripted-transport.js';\nexport const y = x;\n")).toEqual([1]);
    expect(await offendingLines('electron/tray/bad.ts', "import { x } from '../../bench/ui.bench.js';\nexport const y = x;\n")).toEqual([1]);
    expect(await offendingLines('electron/cli/commands/bad.ts', "import { clipboard } from 'electron';\nexport const y = clipboard;\n")).toEqual([1]);
    // Tests may use test support.
    expect(await importErrors('electron/core/index/ok.test.ts', "import { x } from '../../../testing/mini-index.js';\nexport const y = x;\n")).toEqual([]);
  });
});
