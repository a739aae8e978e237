/** A throw-away CODEX_HOME in which the real Codex CLI talks only to the mock LLM (fixtures' setup). */
import path from 'node:path';
import { baseAgentEnv, writeOnce } from './home-files.js';

export function codexEnv(home: string, mockUrl: string, extraToml = ''): NodeJS.ProcessEnv {
  const codexHome = path.join(home, '.codex');
  writeOnce(path.join(codexHome, 'config.toml'), () =>
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
  return baseAgentEnv(home, { CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy' });
}
