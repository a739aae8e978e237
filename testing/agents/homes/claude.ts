/** A throw-away HOME in which the real Claude Code talks only to the mock LLM. */
import fs from 'node:fs';
import path from 'node:path';

export function claudeEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  const stateFile = path.join(home, '.claude.json');
  if (!fs.existsSync(stateFile)) {
    // Pre-approved dummy key and finished onboarding, so the TUI starts without questions.
    fs.writeFileSync(stateFile, JSON.stringify({ hasCompletedOnboarding: true, customApiKeyResponses: { approved: ['dummy'], rejected: [] } }, null, 2));
  }
  return {
    HOME: home,
    PATH: process.env.PATH,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}
