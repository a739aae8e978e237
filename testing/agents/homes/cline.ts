/**
 * A throw-away HOME in which the real Cline CLI talks only to the mock LLM (the fixtures' setup,
 * MANIFEST.md): the provider file `cline auth -p openai -k dummy -m mock-model -b <url>` writes,
 * so no Cline account is needed. Cline keeps everything under ~/.cline (sessions, settings, logs).
 */
import fs from 'node:fs';
import path from 'node:path';

export function clineEnv(home: string, mockUrl: string): NodeJS.ProcessEnv {
  const file = path.join(home, '.cline', 'data', 'settings', 'providers.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.mkdirSync(path.join(home, '.tmp'), { recursive: true });
  if (!fs.existsSync(file)) {
    const settings = { provider: 'openai-compatible', apiKey: 'dummy', model: 'mock-model', baseUrl: `${mockUrl}/v1` };
    const provider = { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' };
    fs.writeFileSync(file, JSON.stringify({ version: 1, lastUsedProvider: 'openai-compatible', modes: {}, providers: { 'openai-compatible': provider } }, null, 2));
  }
  return { HOME: home, PATH: process.env.PATH, TMPDIR: path.join(home, '.tmp'), TMUX_TMPDIR: path.join(home, '.tmp'), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
}

/**
 * Cline's CLI starts a "hub daemon" in a session of its own (so it outlives the CLI's process
 * group) and records its pid in the data dir's hub lock: stop it by that pid, once it is checked
 * to be Cline's hub and not a recycled pid.
 */
export function stopClineHub(home: string, dataDir = path.join(home, '.cline', 'data')): void {
  const lock = path.join(dataDir, 'locks', 'hub', 'production.json');
  let pid: number;
  try {
    pid = Number((JSON.parse(fs.readFileSync(lock, 'utf8')) as { pid?: unknown }).pid);
  } catch {
    return; // no hub was started
  }
  if (!Number.isInteger(pid) || pid <= 1) return;
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return; // already gone
  }
  if (!cmdline.includes('--cline-hub-daemon')) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
}
