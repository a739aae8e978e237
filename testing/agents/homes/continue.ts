/**
 * A throw-away HOME in which Continue's real `cn` talks only to the mock LLM (the fixtures' setup,
 * MANIFEST.md): a local config.yaml names the mock as an OpenAI model, so no `cn login` is needed.
 */
import path from 'node:path';
import { baseAgentEnv, writeOnce } from './home-files.js';

export function continueConfigFile(home: string): string {
  return path.join(home, '.continue', 'config.yaml');
}

export function continueEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  writeOnce(continueConfigFile(home), () =>
    [
      'name: Local Config',
      'version: 1.0.0',
      'schema: v1',
      'models:',
      '  - name: mock',
      '    provider: openai',
      '    model: mock-model',
      `    apiBase: ${mockUrl}/v1`,
      '    apiKey: dummy',
      '    roles: [chat, edit, apply]',
      '    capabilities: [tool_use]',
      '',
    ].join('\n'),
  );
  return baseAgentEnv(home, { CONTINUE_METRICS_ENABLED: 'false' });
}
