import { describe, expect, it } from 'vitest';
import type { BriefResult } from '../../shared/api-types.js';
import { briefCopiedNotice } from './brief-notice.js';

const brief = (patch: Partial<BriefResult>): BriefResult => ({
  sessionId: 'claude:x', target: 'codex', format: 'md', text: '…', tokens: 4321, budget: 6000,
  redactions: {}, redacted: true, openCommand: null, ...patch,
});

describe('briefCopiedNotice', () => {
  it('says which session, how big, for whom and what was redacted', () => {
    expect(briefCopiedNotice(brief({ redactions: { 'aws-key': 2, password: 1 } }), { agent: 'claude', cwd: '/home/me/baton' }, 0)).toEqual({
      title: 'Brief copied — Claude Code · baton',
      body: '4,321 tokens for Codex CLI · 3 redactions (aws-key ×2, password ×1)',
    });
  });

  it('mentions no secrets, redaction off and the auto-clear', () => {
    expect(briefCopiedNotice(brief({ target: 'generic' }), { agent: 'hermes', cwd: null }, 30).body).toBe('4,321 tokens for any agent · no secrets found · clipboard clears in 30s');
    expect(briefCopiedNotice(brief({ redacted: false }), { agent: 'codex', cwd: '/p' }, 0).body).toContain('redaction off');
  });
});
