/** A throw-away HOME in which the real Kilo Code (an OpenCode fork) talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function kiloEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.config', 'kilo');
  writeOnce(path.join(dir, 'kilo.json'), () =>
    json({
      // Kilo writes this key into a config that lacks it at its first start (as a user's config has it).
      $schema: 'https://app.kilo.ai/config.json',
      model: 'mock/mock-model',
      small_model: 'mock/mock-model',
      autoupdate: false,
      share: 'disabled',
      provider: {
        mock: {
          npm: '@ai-sdk/openai-compatible',
          name: 'mock',
          options: { baseURL: `${mockUrl}/v1`, apiKey: 'dummy' },
          models: { 'mock-model': { name: 'mock-model', tool_call: true, reasoning: true } },
        },
      },
      // Kilo's built-in rules ask before reading *.env files; `kilo run` would answer with a rejection.
      permission: { edit: 'allow', bash: 'allow', read: { '*': 'allow', '*.env': 'allow', '*.env.*': 'allow' }, webfetch: 'deny' },
    }),
  );
  return baseAgentEnv(home, {
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    // Otherwise Kilo npm-installs its default plugins at start.
    KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_DISABLE_SESSION_INGEST: '1',
  });
}
