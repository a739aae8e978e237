/** A throw-away HOME in which the real OpenCode talks only to the mock LLM (fixtures' setup). */
import fs from 'node:fs';
import path from 'node:path';

export function opencodeEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.config', 'opencode');
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'opencode.json');
  if (!fs.existsSync(config)) {
    fs.writeFileSync(
      config,
      JSON.stringify(
        {
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
        },
        null,
        2,
      ),
    );
  }
  return {
    HOME: home,
    PATH: process.env.PATH,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
}
