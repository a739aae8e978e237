/** A throw-away HOME in which the real pi coding agent talks only to the mock LLM (fixtures' setup). */
import fs from 'node:fs';
import path from 'node:path';

export function piEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.pi', 'agent');
  fs.mkdirSync(dir, { recursive: true });
  const models = path.join(dir, 'models.json');
  if (!fs.existsSync(models)) {
    fs.writeFileSync(
      models,
      JSON.stringify(
        {
          providers: {
            mock: {
              api: 'anthropic-messages',
              baseUrl: mockUrl,
              apiKey: 'dummy',
              models: [
                {
                  id: 'mock-sonnet',
                  name: 'mock-sonnet',
                  reasoning: true,
                  input: ['text'],
                  contextWindow: 200000,
                  maxTokens: 8192,
                  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
                },
              ],
            },
          },
        },
        null,
        2,
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ defaultProvider: 'mock', defaultModel: 'mock-sonnet', enableInstallTelemetry: false }, null, 2),
    );
  }
  return {
    HOME: home,
    PATH: process.env.PATH,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
  };
}
