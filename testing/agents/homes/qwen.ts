/** A throw-away HOME in which the real Qwen Code talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, json, writeOnce } from './home-files.js';

export function qwenEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.qwen');
  writeOnce(path.join(dir, 'settings.json'), () =>
    json({
      security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ui: { enableFollowupSuggestions: false },
      memory: { enableManagedAutoMemory: false },
    }),
  );
  return baseAgentEnv(home, {
    OPENAI_BASE_URL: `${mockUrl}/v1`,
    OPENAI_API_KEY: 'dummy',
    OPENAI_MODEL: 'mock-coder',
  });
}
