/**
 * A throw-away HOME in which the real Letta Code CLI runs in its local backend (agents and
 * conversations on disk, no Letta account) and talks only to the mock LLM, connected as an
 * OpenAI-compatible BYOK provider. The two files are what `letta backend local` and
 * `letta connect openai-compatible --base-url … --api-key dummy` write (MANIFEST.md, Letta section).
 */
import fs from 'node:fs';
import path from 'node:path';
import { privateTmpEnv } from './private-tmp-env.js';

/** The model every run names (`-m`): the mock's id under Letta's provider. */
export const LETTA_MODEL = 'openai-compatible/mock-model';

export function lettaEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.letta');
  const auth = path.join(dir, 'lc-local-backend', 'providers', 'auth.json');
  if (!fs.existsSync(auth)) {
    fs.mkdirSync(path.dirname(auth), { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify({ preferredBackendMode: 'local' }, null, 2)}\n`);
    const now = new Date().toISOString();
    const provider = { id: 'local-provider-openai-compatible', name: 'openai-compatible', provider_type: 'openai-compatible', provider_category: 'byok', auth: { type: 'api', key: 'dummy' }, base_url: `${mockUrl}/v1`, created_at: now, updated_at: now };
    fs.writeFileSync(auth, `${JSON.stringify({ version: 1, providers: { 'openai-compatible': provider } }, null, 2)}\n`);
  }
  return {
    ...privateTmpEnv(home),
    LETTA_CODE_TELEM: '0',
    LETTA_DISABLE_LSP_DOWNLOAD: '1',
  };
}
