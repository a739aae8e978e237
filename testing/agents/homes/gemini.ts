/** A throw-away HOME in which the real Gemini CLI talks only to the mock LLM (fixtures' setup). */
import fs from 'node:fs';
import path from 'node:path';

export function geminiEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.gemini');
  fs.mkdirSync(dir, { recursive: true });
  const settings = path.join(dir, 'settings.json');
  if (!fs.existsSync(settings)) {
    fs.writeFileSync(
      settings,
      JSON.stringify(
        {
          security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
          general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: false } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          ide: { enabled: false },
          ui: { hideTips: true },
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
    GOOGLE_GEMINI_BASE_URL: mockUrl,
    GEMINI_API_KEY: 'dummy',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
}
