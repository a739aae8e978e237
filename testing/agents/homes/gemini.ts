/** A throw-away HOME in which the real Gemini CLI talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function geminiEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.gemini');
  writeOnce(path.join(dir, 'settings.json'), () =>
    json({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false },
      ui: { hideTips: true },
    }),
  );
  return baseAgentEnv(home, {
    GOOGLE_GEMINI_BASE_URL: mockUrl,
    GEMINI_API_KEY: 'dummy',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  });
}
