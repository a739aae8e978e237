import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createOpenCodeAdapter } from '../../sources/opencode/index.js';
import { openCodeFamilyWriterSuite } from '../../../../testing/opencode-family-writer-suite.js';
import { kiloDbPath, kiloWriter } from './kilo-writer.js';

describe('Kilo Code native writer (stage and checks; commit runs the real `kilo import`, see e2e/agents/continue-kilo)', () => {
  openCodeFamilyWriterSuite({
    agent: 'kilo',
    writer: kiloWriter,
    bin: 'kilo',
    version: '7.7.7',
    dbPath: kiloDbPath,
    adapter: (roots) => createOpenCodeAdapter(roots, {}, 'kilo'),
    prepare(home) {
      const config = path.join(home, '.config', 'kilo');
      fs.mkdirSync(config, { recursive: true });
      // Kilo merges its config files, the later winning: kilo.json over config.json.
      fs.writeFileSync(path.join(config, 'config.json'), '{ "model": "old/loser" }\n');
      fs.writeFileSync(path.join(config, 'kilo.json'), '{ "model": "mock/mock-model" }\n');
    },
    expectDocument(doc, _staged, cwd) {
      expect(doc.info).toMatchObject({ directory: cwd });
      // Kilo's primary agent, and the model the winning config names.
      for (const m of doc.messages) expect(m.info).toMatchObject({ agent: 'code' });
      expect(doc.messages[0]!.info).toMatchObject({ role: 'user', model: { providerID: 'mock', modelID: 'mock-model' } });
    },
  });
});
