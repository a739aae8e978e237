/** A throw-away HOME in which the real pi coding agent talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function piEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.pi', 'agent');
  writeOnce(path.join(dir, 'models.json'), () =>
    json({
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
    }),
  );
  writeOnce(path.join(dir, 'settings.json'), () => json({ defaultProvider: 'mock', defaultModel: 'mock-sonnet', enableInstallTelemetry: false }));
  return baseAgentEnv(home, {
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
  });
}
