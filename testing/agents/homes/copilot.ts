/**
 * A throw-away HOME in which the real GitHub Copilot CLI talks only to the mock LLM (the fixtures'
 * setup, MANIFEST.md): Copilot's documented BYOK provider variables replace a GitHub login, and
 * COPILOT_OFFLINE keeps it from calling home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { privateTmpEnv } from './private-tmp-env.js';

export function copilotEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  fs.mkdirSync(path.join(home, '.copilot'), { recursive: true });
  return {
    ...privateTmpEnv(home),
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'dummy',
    COPILOT_MODEL: 'mock-model',
  };
}
