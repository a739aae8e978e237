/** A throw-away HOME in which the real Claude Code talks only to the mock LLM. */
import fs from 'node:fs';
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function claudeEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  // Pre-approved dummy key and finished onboarding, so the TUI starts without questions.
  writeOnce(path.join(home, '.claude.json'), () => json({ hasCompletedOnboarding: true, customApiKeyResponses: { approved: ['dummy'], rejected: [] } }));
  return baseAgentEnv(home, {
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
}
