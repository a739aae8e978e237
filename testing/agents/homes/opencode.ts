/** A throw-away HOME in which the real OpenCode talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function opencodeEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.config', 'opencode');
  writeOnce(path.join(dir, 'opencode.json'), () =>
    json({
      $schema: 'https://opencode.ai/config.json',
      model: 'mock/mock-model',
      provider: {
        mock: {
          npm: '@ai-sdk/openai-compatible',
          name: 'mock',
          options: { baseURL: `${mockUrl}/v1`, apiKey: 'dummy' },
          models: { 'mock-model': { name: 'mock-model' } },
        },
      },
      permission: { edit: 'allow', bash: 'allow' },
    }),
  );
  return baseAgentEnv(home, {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  });
}
