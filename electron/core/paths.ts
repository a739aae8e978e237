/**
 * Where things live: Baton's own data dir and each agent's store roots, per platform, honouring
 * the environment overrides the agents themselves honour. Pure functions of (env, platform, home)
 * so tests can ask about any machine.
 */
import path from 'node:path';
import os from 'node:os';
import type { AgentId } from '../../shared/model.js';

export interface Environment {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

export function currentEnvironment(): Environment {
  // HOME wins over os.homedir() so `HOME=/some/home baton list` reads that home, as the agents would.
  const home = process.env.HOME || process.env.USERPROFILE || os.homedir();
  return { env: process.env, platform: process.platform, home };
}

/** Platform-specific join so Windows paths are built correctly when described on any OS. */
function joiner(platform: NodeJS.Platform): (...parts: string[]) => string {
  return platform === 'win32' ? path.win32.join : path.posix.join;
}

export function batonDataDir({ env, platform, home }: Environment): string {
  if (env.BATON_HOME) return env.BATON_HOME;
  const join = joiner(platform);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Baton');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Baton');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'baton');
}

/** Store roots for an agent, most specific first. A root may not exist. */
export function defaultStoreRoots(agent: AgentId, { env, platform, home }: Environment): string[] {
  const join = joiner(platform);
  switch (agent) {
    case 'claude': {
      // CLAUDE_CONFIG_DIR replaces ~/.claude; ccusage treats it as a comma-separated list, so do we.
      if (env.CLAUDE_CONFIG_DIR) {
        return env.CLAUDE_CONFIG_DIR.split(',').map((p) => p.trim()).filter(Boolean);
      }
      const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
      return [join(home, '.claude'), join(xdg, 'claude')];
    }
    case 'codex':
      return [env.CODEX_HOME || join(home, '.codex')];
    case 'opencode': {
      // OpenCode uses xdg-basedir on every platform, Windows included.
      const data = join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode');
      if (env.OPENCODE_DB && env.OPENCODE_DB !== ':memory:') {
        const db = path.isAbsolute(env.OPENCODE_DB) ? env.OPENCODE_DB : join(data, env.OPENCODE_DB);
        return [db, data];
      }
      return [data];
    }
    case 'hermes': {
      if (env.HERMES_HOME) return [env.HERMES_HOME];
      const suffix = env.HERMES_DATA_DIR_SUFFIX || '';
      if (platform === 'win32') {
        const local = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
        return [join(local, `hermes${suffix}`)];
      }
      return [join(home, `.hermes${suffix}`)];
    }
    case 'gemini': {
      // Gemini CLI's own override replaces the home folder its `.gemini` lives in. Under its macOS
      // seatbelt sandbox (sandbox-exec) the CLI keeps sessions in `~/.cache/.gemini` instead.
      const base = env.GEMINI_CLI_HOME || home;
      return platform === 'darwin' ? [join(base, '.gemini'), join(base, '.cache', '.gemini')] : [join(base, '.gemini')];
    }
    case 'qwen': {
      // Sessions live under Qwen's runtime dir: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen
      // (Qwen Code 0.24 `Storage.getRuntimeBaseDir`; both expand a leading ~).
      const dir = env.QWEN_RUNTIME_DIR || env.QWEN_HOME;
      return [dir ? expandTilde(dir, home, join) : join(home, '.qwen')];
    }
    case 'pi': {
      // pi's own order: the session-dir override, else <agent dir>/sessions.
      if (env.PI_CODING_AGENT_SESSION_DIR) return [env.PI_CODING_AGENT_SESSION_DIR];
      return [join(env.PI_CODING_AGENT_DIR || join(home, '.pi', 'agent'), 'sessions')];
    }
    case 'cline':
      // Cline 3.0's own order (its storage paths, read in the 3.0.65 bundle): CLINE_SESSION_DATA_DIR
      // is the sessions folder itself, else CLINE_DATA_DIR (what `--data-dir` sets for one run), else
      // CLINE_DIR/data (`--config`), else ~/.cline/data, on every platform. Cline expands no `~`.
      if (env.CLINE_SESSION_DATA_DIR?.trim()) return [env.CLINE_SESSION_DATA_DIR.trim()];
      if (env.CLINE_DATA_DIR?.trim()) return [env.CLINE_DATA_DIR.trim()];
      return [join(env.CLINE_DIR?.trim() || join(home, '.cline'), 'data')];
    case 'kilo':
      // Kilo Code is an OpenCode fork: the same xdg-basedir data dir, named kilo (kilo.db).
      return [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'kilo')];
    case 'copilot':
      // COPILOT_HOME replaces ~/.copilot (Copilot CLI's config dir reference).
      return [env.COPILOT_HOME || join(home, '.copilot')];
    case 'continue':
      // CONTINUE_GLOBAL_DIR replaces ~/.continue (Continue's own override).
      return [env.CONTINUE_GLOBAL_DIR || join(home, '.continue')];
    case 'droid':
      // Droid 0.225 keeps everything in ~/.factory; FACTORY_HOME_OVERRIDE replaces the home it is in.
      return [factoryDir({ env, platform, home })];
    case 'letta':
      // Letta Code 0.32's local backend: ~/.letta/lc-local-backend (no variable moves it).
      return [join(home, '.letta')];
  }
}

/** Droid's `~/.factory`, under FACTORY_HOME_OVERRIDE when set (Droid 0.225 resolves its home that way). */
export function factoryDir({ env, platform, home }: Environment): string {
  return joiner(platform)(env.FACTORY_HOME_OVERRIDE || home, '.factory');
}

/** `~` and `~/…` (or `~\\…`) as the home folder, the way Qwen Code resolves its directory variables. */
export function expandTilde(dir: string, home: string, join: (...parts: string[]) => string = path.join): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/') || dir.startsWith('~\\')) return join(home, ...dir.slice(2).split(/[/\\]+/).filter(Boolean));
  return dir;
}
