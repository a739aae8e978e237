/**
 * A throw-away HOME in which Continue's real `cn` talks only to the mock LLM (the fixtures' setup,
 * MANIFEST.md): a local config.yaml names the mock as an OpenAI model, so no `cn login` is needed.
 */
import fs from 'node:fs';
import path from 'node:path';

export function continueConfigFile(home: string): string {
  return path.join(home, '.continue', 'config.yaml');
}

export function continueEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const file = continueConfigFile(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) {
    fs.writeFileSync(
      file,
      [
        'name: Local Config',
        'version: 1.0.0',
        'schema: v1',
        'models:',
        '  - name: mock',
        '    provider: openai',
        '    model: mock-model',
        `    apiBase: ${mockUrl}/v1`,
        '    apiKey: dummy',
        '    roles: [chat, edit, apply]',
        '    capabilities: [tool_use]',
        '',
      ].join('\n'),
    );
  }
  return { HOME: home, PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8', CONTINUE_METRICS_ENABLED: 'false' };
}
