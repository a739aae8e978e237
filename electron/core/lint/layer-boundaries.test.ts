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
