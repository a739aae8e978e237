import { describe, expect } from 'vitest';
import { createOpenCodeAdapter } from '../../sources/opencode/index.js';
import { openCodeFamilyWriterSuite } from '../../../../testing/opencode-family-writer-suite.js';
import { openCodeDbPath, openCodeWriter } from './opencode-writer.js';

describe('OpenCode native writer (stage and checks; commit runs the real `opencode import`, see e2e/agents/continue-opencode)', () => {
  openCodeFamilyWriterSuite({
    agent: 'opencode',
    writer: openCodeWriter,
    bin: 'opencode',
    version: '1.18.33',
    dbPath: openCodeDbPath,
    adapter: (roots) => createOpenCodeAdapter(roots),
    expectDocument(doc) {
      const ids = doc.messages.map((m) => m.info.id);
      expect([...ids].sort()).toEqual(ids); // ascending, as OpenCode orders messages by id
      for (const m of doc.messages) for (const p of m.parts) expect(p.id).toMatch(/^prt_/);
    },
  });
});
