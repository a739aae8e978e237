/**
 * A throw-away HOME in which the real Cline CLI talks only to the mock LLM (the fixtures' setup,
 * MANIFEST.md): the provider file `cline auth -p openai -k dummy -m mock-model -b <url>` writes,
 * so no Cline account is needed. Cline keeps everything under ~/.cline (sessions, settings, logs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { privateTmpEnv } from './private-tmp-env.js';
import { json, writeOnce } from './home-files.js';

export function clineEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  writeOnce(path.join(home, '.cline', 'data', 'settings', 'providers.json'), () => {
    const settings = { provider: 'openai-compatible', apiKey: 'dummy', model: 'mock-model', baseUrl: `${mockUrl}/v1` };
    const provider = { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' };
    return json({ version: 1, lastUsedProvider: 'openai-compatible', modes: {}, providers: { 'openai-compatible': provider } });
  });
  const env = privateTmpEnv(home);
  return { ...env, TMUX_TMPDIR: env.TMPDIR };
}

/**
 * Cline's CLI starts a "hub daemon" in a session of its own (so it outlives the CLI's process
 * group), one per start that finds none answering: stop every hub running with this test's HOME
 * (its environment names it), by pid. Nothing else on the machine has that throw-away HOME.
 */
export function stopClineHub(home: string): void {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return; // no /proc: nothing to find
  }
  for (const pid of pids) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--cline-hub-daemon')) continue;
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) continue;
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
}
