/**
 * A throw-away HOME in which the real Factory Droid talks only to the mock LLM (the fixtures' setup,
 * MANIFEST.md): a BYOK custom model in ~/.factory/settings.json replaces a Factory login, and
 * Factory's own API and telemetry are pointed at the mock (its 404s are taken in stride; without
 * the base URL `droid exec -s` waits on DNS for api.factory.ai and fails).
 */
import path from 'node:path';
import { json, writeOnce } from './home-files.js';
import { privateTmpEnv } from './private-tmp-env.js';

/** Droid's `-m` for the BYOK model below. */
export const DROID_MODEL = 'custom:mock-model';

export function droidEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.factory');
  writeOnce(path.join(dir, 'settings.json'), () =>
    json({
      customModels: [
        {
          model: 'mock-model',
          id: DROID_MODEL,
          displayName: 'Mock',
          baseUrl: `${mockUrl}/v1`,
          apiKey: 'dummy',
          provider: 'generic-chat-completion-api',
          maxOutputTokens: 4096,
          noImageSupport: true,
        },
      ],
      sessionDefaultSettings: { model: DROID_MODEL },
    }),
  );
  return {
    ...privateTmpEnv(home),
    USER: 'baton-test',
    FACTORY_DISABLE_KEYRING: '1',
    FACTORY_API_BASE_URL: mockUrl,
    FACTORY_TELEMETRY_INGEST_BASE_URL: mockUrl,
  };
}
