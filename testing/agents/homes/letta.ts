/**
 * A throw-away HOME in which the real Letta Code CLI runs in its local backend (agents and
 * conversations on disk, no Letta account) and talks only to the mock LLM, connected as an
 * OpenAI-compatible BYOK provider. The two files are what `letta backend local` and
 * `letta connect openai-compatible --base-url … --api-key dummy` write (MANIFEST.md, Letta section).
 */
import path from 'node:path';
import { json, writeOnce } from './home-files.js';
import { privateTmpEnv } from './private-tmp-env.js';

/** The model every run names (`-m`): the mock's id under Letta's provider. */
export const LETTA_MODEL = 'openai-compatible/mock-model';

export function lettaEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.letta');
  writeOnce(path.join(dir, 'settings.json'), () => `${json({ preferredBackendMode: 'local' })}\n`);
  writeOnce(path.join(dir, 'lc-local-backend', 'providers', 'auth.json'), () => {
    const now = new Date().toISOString();
    const provider = { id: 'local-provider-openai-compatible', name: 'openai-compatible', provider_type: 'openai-compatible', provider_category: 'byok', auth: { type: 'api', key: 'dummy' }, base_url: `${mockUrl}/v1`, created_at: now, updated_at: now };
    return `${json({ version: 1, providers: { 'openai-compatible': provider } })}\n`;
  });
  return {
    ...privateTmpEnv(home),
    LETTA_CODE_TELEM: '0',
    LETTA_DISABLE_LSP_DOWNLOAD: '1',
  };
}
