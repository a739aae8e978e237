/** A throw-away CODEX_HOME in which the real Codex CLI talks only to the mock LLM (fixtures' setup). */
import fs from 'node:fs';
import path from 'node:path';

export function codexEnv(home: string, mockUrl: string, extraToml = ''): NodeJS.ProcessEnv {
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const config = path.join(codexHome, 'config.toml');
  if (!fs.existsSync(config)) {
    fs.writeFileSync(
      config,
      [
        'model = "gpt-5.5"',
        'model_provider = "mock"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        '',
        '[model_providers.mock]',
        'name = "mock"',
        `base_url = "${mockUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        '',
        extraToml,
      ].join('\n'),
    );
  }
  return { HOME: home, CODEX_HOME: codexHome, PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8', MOCK_API_KEY: 'dummy' };
}
