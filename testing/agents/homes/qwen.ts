/** A throw-away HOME in which the real Qwen Code talks only to the mock LLM (fixtures' setup). */
import fs from 'node:fs';
import path from 'node:path';

export function qwenEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.qwen');
  fs.mkdirSync(dir, { recursive: true });
  const settings = path.join(dir, 'settings.json');
  if (!fs.existsSync(settings)) {
    fs.writeFileSync(
      settings,
      JSON.stringify(
        {
          security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
          general: { enableAutoUpdate: false },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          ui: { enableFollowupSuggestions: false },
          memory: { enableManagedAutoMemory: false },
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
    OPENAI_BASE_URL: `${mockUrl}/v1`,
    OPENAI_API_KEY: 'dummy',
    OPENAI_MODEL: 'mock-coder',
  };
}
