import { describe, expect, it } from 'vitest';
import { batonDataDir, defaultStoreRoots } from './paths.js';

const linux = (env: NodeJS.ProcessEnv = {}) => ({ env, platform: 'linux' as const, home: '/home/ana' });

describe('data dir', () => {
  it('follows BATON_HOME, then the platform convention', () => {
    expect(batonDataDir(linux({ BATON_HOME: '/b' }))).toBe('/b');
    expect(batonDataDir(linux())).toBe('/home/ana/.config/baton');
    expect(batonDataDir(linux({ XDG_CONFIG_HOME: '/x' }))).toBe('/x/baton');
    expect(batonDataDir({ env: {}, platform: 'darwin', home: '/Users/ana' })).toBe('/Users/ana/Library/Application Support/Baton');
    expect(batonDataDir({ env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, platform: 'win32', home: 'C:\\Users\\ana' })).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Baton',
    );
  });
});

describe('agent store roots', () => {
  it('uses each agent’s defaults', () => {
    expect(defaultStoreRoots('claude', linux())).toEqual(['/home/ana/.claude', '/home/ana/.config/claude']);
    expect(defaultStoreRoots('codex', linux())).toEqual(['/home/ana/.codex']);
    expect(defaultStoreRoots('opencode', linux())).toEqual(['/home/ana/.local/share/opencode']);
    expect(defaultStoreRoots('hermes', linux())).toEqual(['/home/ana/.hermes']);
  });

  it('honours the agents’ own environment overrides', () => {
    expect(defaultStoreRoots('claude', linux({ CLAUDE_CONFIG_DIR: '/c1,/c2' }))).toEqual(['/c1', '/c2']);
    expect(defaultStoreRoots('codex', linux({ CODEX_HOME: '/cx' }))).toEqual(['/cx']);
    expect(defaultStoreRoots('opencode', linux({ XDG_DATA_HOME: '/data' }))).toEqual(['/data/opencode']);
    expect(defaultStoreRoots('opencode', linux({ OPENCODE_DB: 'opencode-dev.db' }))).toEqual([
      '/home/ana/.local/share/opencode/opencode-dev.db',
      '/home/ana/.local/share/opencode',
    ]);
    expect(defaultStoreRoots('hermes', linux({ HERMES_HOME: '/h' }))).toEqual(['/h']);
    // Gemini CLI's GEMINI_CLI_HOME stands in for the home folder, `.gemini` stays below it.
    expect(defaultStoreRoots('gemini', linux({}))).toEqual(['/home/ana/.gemini']);
    expect(defaultStoreRoots('gemini', linux({ GEMINI_CLI_HOME: '/g' }))).toEqual(['/g/.gemini']);
    expect(defaultStoreRoots('gemini', { env: {}, platform: 'darwin', home: '/Users/ana' })).toEqual(['/Users/ana/.gemini', '/Users/ana/.cache/.gemini']);
  });

  it('puts Cline sessions where Cline 3.0 writes them: CLINE_SESSION_DATA_DIR, else CLINE_DATA_DIR, else CLINE_DIR/data, else ~/.cline/data', () => {
    expect(defaultStoreRoots('cline', linux())).toEqual(['/home/ana/.cline/data']);
    expect(defaultStoreRoots('cline', linux({ CLINE_DIR: '/c' }))).toEqual(['/c/data']);
    expect(defaultStoreRoots('cline', linux({ CLINE_DIR: '/c', CLINE_DATA_DIR: '/d' }))).toEqual(['/d']);
    expect(defaultStoreRoots('cline', linux({ CLINE_DATA_DIR: '/d', CLINE_SESSION_DATA_DIR: '/s/transcripts' }))).toEqual(['/s/transcripts']);
    // Blank values are unset for Cline (it trims them).
    expect(defaultStoreRoots('cline', linux({ CLINE_DATA_DIR: '  ', CLINE_DIR: '' }))).toEqual(['/home/ana/.cline/data']);
  });

  it('puts Qwen Code sessions where Qwen writes them: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen', () => {
    expect(defaultStoreRoots('qwen', linux())).toEqual(['/home/ana/.qwen']);
    expect(defaultStoreRoots('qwen', linux({ QWEN_HOME: '/q' }))).toEqual(['/q']);
    expect(defaultStoreRoots('qwen', linux({ QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '~/runtime/qwen' }))).toEqual(['/home/ana/runtime/qwen']);
    expect(defaultStoreRoots('qwen', linux({ QWEN_HOME: '~' }))).toEqual(['/home/ana']);
    expect(defaultStoreRoots('qwen', { env: { QWEN_HOME: '~\\q' }, platform: 'win32', home: 'C:\\Users\\ana' })).toEqual(['C:\\Users\\ana\\q']);
  });

  it('knows Windows and macOS conventions', () => {
    const win = { env: { LOCALAPPDATA: 'C:\\L' }, platform: 'win32' as const, home: 'C:\\Users\\ana' };
    expect(defaultStoreRoots('hermes', win)).toEqual(['C:\\L\\hermes']);
    expect(defaultStoreRoots('opencode', win)).toEqual(['C:\\Users\\ana\\.local\\share\\opencode']);
    expect(defaultStoreRoots('codex', { env: {}, platform: 'darwin', home: '/Users/ana' })).toEqual(['/Users/ana/.codex']);
  });
});
