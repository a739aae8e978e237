import { describe, expect, it } from 'vitest';
import { storeRootsFor } from '../sources/local-adapters.js';
import { linuxPathToWsl, parseWslDistros, wslOpenArgv, wslOpenPowerShell, wslPathToLinux, wslStoreRoots } from './wsl-paths.js';

describe('WSL path mapping', () => {
  it('maps \\\\wsl.localhost and \\\\wsl$ paths to the Linux path inside the distro', () => {
    expect(wslPathToLinux('\\\\wsl.localhost\\Ubuntu-22.04\\home\\ana\\.claude\\projects\\a.jsonl')).toEqual({
      distro: 'Ubuntu-22.04',
      linuxPath: '/home/ana/.claude/projects/a.jsonl',
    });
    expect(wslPathToLinux('\\\\wsl$\\Debian\\home\\bo')).toEqual({ distro: 'Debian', linuxPath: '/home/bo' });
    expect(wslPathToLinux('//wsl.localhost/Debian/')).toEqual({ distro: 'Debian', linuxPath: '/' });
    expect(wslPathToLinux('C:\\Users\\ana\\.claude')).toBeNull();
    expect(wslPathToLinux('\\\\server\\share\\x')).toBeNull();
  });

  it('maps Linux paths back, round-tripping', () => {
    const unc = linuxPathToWsl('Ubuntu', '/home/ana/.codex/sessions/');
    expect(unc).toBe('\\\\wsl.localhost\\Ubuntu\\home\\ana\\.codex\\sessions');
    expect(wslPathToLinux(unc)).toEqual({ distro: 'Ubuntu', linuxPath: '/home/ana/.codex/sessions' });
    expect(linuxPathToWsl('Ubuntu', '/')).toBe('\\\\wsl.localhost\\Ubuntu');
  });

  it("gives each agent's Linux store roots inside a distro", () => {
    expect(wslStoreRoots('claude', 'Ubuntu', '/home/ana')).toEqual(['\\\\wsl.localhost\\Ubuntu\\home\\ana\\.claude', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\.config\\claude']);
    expect(wslStoreRoots('codex', 'Ubuntu', '/home/ana')).toEqual(['\\\\wsl.localhost\\Ubuntu\\home\\ana\\.codex']);
  });

  it('reads the distro list wsl.exe prints in UTF-16LE', () => {
    const out = Buffer.from('\uFEFFUbuntu-22.04\r\nDebian\r\n\r\n', 'utf16le');
    expect(parseWslDistros(out)).toEqual(['Ubuntu-22.04', 'Debian']);
    expect(parseWslDistros(Buffer.from('Ubuntu\n'))).toEqual(['Ubuntu']);
  });

  it('opens a session inside its distro as the PowerShell line a Windows terminal runs', () => {
    expect(wslOpenPowerShell('Ubuntu', "/home/ana/it's", 'opencode', 'C:\\Users\\ana\\Temp\\b.md')).toBe(
      "& 'wsl.exe' '-d' 'Ubuntu' '--cd' '/home/ana/it''s' '--' 'opencode' '--prompt' (Get-Content -Raw -LiteralPath 'C:\\Users\\ana\\Temp\\b.md')",
    );
  });

  it('opens a session inside its distro and folder', () => {
    expect(wslOpenArgv('Ubuntu', '/home/ana/app', ['claude', '--resume', 'abc'])).toEqual(['wsl.exe', '-d', 'Ubuntu', '--cd', '/home/ana/app', '--', 'claude', '--resume', 'abc']);
  });
});

describe('WSL distros in the store roots', () => {
  const win = { env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, platform: 'win32' as const, home: 'C:\\Users\\ana' };
  const distros = [{ distro: 'Ubuntu', home: '/home/ana', enabled: true }, { distro: 'Old', home: '/home/ana', enabled: false }];

  it("adds each enabled distro's Linux store to the agent's Windows roots", () => {
    expect(storeRootsFor('codex', { enabled: true, path: null }, win, distros)).toEqual(['C:\\Users\\ana\\.codex', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\.codex']);
  });

  it('leaves a path set in settings, and other platforms, alone', () => {
    expect(storeRootsFor('codex', { enabled: true, path: 'D:\\codex' }, win, distros)).toEqual(['D:\\codex']);
    expect(storeRootsFor('codex', { enabled: true, path: null }, { env: {}, platform: 'linux', home: '/home/ana' }, distros)).toEqual(['/home/ana/.codex']);
  });
});
