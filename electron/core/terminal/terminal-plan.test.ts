import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentPromptCommand, copyableCommand } from './agent-command.js';
import { chooseTerminal, findOnPath, planLaunch, type HostProbe } from './terminal-plan.js';

function probe(platform: NodeJS.Platform, files: string[], env: NodeJS.ProcessEnv = {}, dirs: string[] = []): HostProbe {
  return {
    platform,
    env: { PATH: platform === 'win32' ? 'C:\\Windows\\System32;C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps' : '/usr/local/bin:/usr/bin', ...env },
    home: platform === 'win32' ? 'C:\\Users\\me' : '/home/me',
    isFile: (f) => files.includes(f),
    isDirectory: (d) => dirs.includes(d),
  };
}

describe('agentPromptCommand', () => {
  it('uses each agent’s first-prompt form (sh)', () => {
    expect(agentPromptCommand('claude', '/tmp/b.md', 'posix')).toBe(`claude "$(cat '/tmp/b.md')"`);
    expect(agentPromptCommand('codex', '/tmp/b.md', 'posix')).toBe(`codex "$(cat '/tmp/b.md')"`);
    expect(agentPromptCommand('opencode', '/tmp/b.md', 'posix')).toBe(`opencode --prompt "$(cat '/tmp/b.md')"`);
    expect(agentPromptCommand('hermes', '/tmp/b.md', 'posix')).toBe(`hermes chat -q "$(cat '/tmp/b.md')"`);
  });

  it('starts the agent bare when its start-up hook delivers the brief', () => {
    expect(agentPromptCommand('codex', null, 'posix')).toBe('codex');
    expect(copyableCommand('hermes', "/w/it's", null, 'posix')).toBe(`cd '/w/it'\\''s' && hermes`);
  });

  it('uses Get-Content -Raw in PowerShell', () => {
    expect(agentPromptCommand('opencode', "C:\\T\\o'b.md", 'powershell')).toBe(
      "opencode --prompt (Get-Content -Raw -LiteralPath 'C:\\T\\o''b.md')",
    );
  });

  it('changes to a cwd with spaces and quotes before starting the agent', () => {
    expect(copyableCommand('claude', "/home/me/it's my proj", '/tmp/b.md', 'posix')).toBe(
      `cd '/home/me/it'\\''s my proj' && claude "$(cat '/tmp/b.md')"`,
    );
    expect(copyableCommand('codex', 'C:\\My Proj', 'C:\\T\\b.md', 'powershell')).toBe(
      "Set-Location -LiteralPath 'C:\\My Proj'; codex (Get-Content -Raw -LiteralPath 'C:\\T\\b.md')",
    );
  });
});

describe('findOnPath', () => {
  it('finds the first match in PATH order', () => {
    expect(findOnPath('xterm', probe('linux', ['/usr/bin/xterm', '/usr/local/bin/xterm']))).toBe('/usr/local/bin/xterm');
    expect(findOnPath('konsole', probe('linux', ['/usr/bin/xterm']))).toBeNull();
  });

  it('applies PATHEXT on Windows', () => {
    const wt = 'C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\wt.exe';
    expect(findOnPath('wt', probe('win32', [wt]))).toBe(wt);
  });
});

describe('chooseTerminal', () => {
  it('Linux: first present in x-terminal-emulator, gnome-terminal, konsole, xterm order', () => {
    expect(chooseTerminal(probe('linux', ['/usr/bin/xterm', '/usr/bin/konsole']))).toEqual({ id: 'konsole', file: '/usr/bin/konsole' });
    expect(chooseTerminal(probe('linux', ['/usr/bin/xterm', '/usr/bin/x-terminal-emulator']))?.id).toBe('x-terminal-emulator');
    expect(chooseTerminal(probe('linux', []))).toBeNull();
  });

  it('honours BATON_TERMINAL when that terminal is present, and ignores it otherwise', () => {
    const files = ['/usr/bin/xterm', '/usr/bin/gnome-terminal'];
    expect(chooseTerminal(probe('linux', files, { BATON_TERMINAL: 'xterm' }))?.id).toBe('xterm');
    expect(chooseTerminal(probe('linux', files, { BATON_TERMINAL: 'konsole' }))?.id).toBe('gnome-terminal');
    expect(chooseTerminal(probe('linux', files, { BATON_TERMINAL: 'rm -rf' }))?.id).toBe('gnome-terminal');
  });

  it('macOS: iTerm2 when installed, else Terminal', () => {
    expect(chooseTerminal(probe('darwin', [], {}, ['/Applications/iTerm.app']))?.id).toBe('iterm');
    expect(chooseTerminal(probe('darwin', [], {}, ['/home/me/Applications/iTerm.app']))?.id).toBe('iterm');
    expect(chooseTerminal(probe('darwin', []))).toEqual({ id: 'terminal-app', file: '/usr/bin/osascript' });
  });

  it('Windows: Windows Terminal when on PATH, else PowerShell', () => {
    const wt = 'C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\wt.exe';
    expect(chooseTerminal(probe('win32', [wt]))).toEqual({ id: 'windows-terminal', file: wt });
    expect(chooseTerminal(probe('win32', []))?.id).toBe('powershell');
  });
});

describe('planLaunch', () => {
  const req = { agent: 'claude' as const, cwd: '/Users/me/my "odd" proj', briefFile: '/tmp/baton-briefs/brief-claude-1.md' };

  it('macOS Terminal: one AppleScript do script with the escaped command', () => {
    const plan = planLaunch(req, { id: 'terminal-app', file: '/usr/bin/osascript' }, 'darwin');
    expect(plan.command).toBe(`cd '/Users/me/my "odd" proj' && claude "$(cat '/tmp/baton-briefs/brief-claude-1.md')"`);
    expect(plan.file).toBe('/usr/bin/osascript');
    expect(plan.args).toContain(`do script "cd '/Users/me/my \\"odd\\" proj' && claude \\"$(cat '/tmp/baton-briefs/brief-claude-1.md')\\""`);
    expect(plan.args.filter((a) => a === '-e')).toHaveLength(plan.args.length / 2);
  });

  it('iTerm2: writes the command into a new window’s session', () => {
    const plan = planLaunch({ ...req, agent: 'hermes' }, { id: 'iterm', file: '/usr/bin/osascript' }, 'darwin');
    expect(plan.args.join('\n')).toContain('tell application "iTerm"');
    expect(plan.args.at(-3)).toBe(`tell current session of batonWindow to write text "cd '/Users/me/my \\"odd\\" proj' && hermes chat -q \\"$(cat '/tmp/baton-briefs/brief-claude-1.md')\\""`);
  });

  it('Windows Terminal: starts PowerShell in the cwd, semicolons escaped for wt', () => {
    const plan = planLaunch(
      { agent: 'codex', cwd: 'C:\\Users\\me\\a;b proj', briefFile: 'C:\\Temp\\b.md' },
      { id: 'windows-terminal', file: 'C:\\wt.exe' },
      'win32',
    );
    expect(plan.command).toBe("Set-Location -LiteralPath 'C:\\Users\\me\\a;b proj'; codex (Get-Content -Raw -LiteralPath 'C:\\Temp\\b.md')");
    expect(plan.args.slice(4, 6)).toEqual(['-d', 'C:\\Users\\me\\a\\;b proj']);
    expect(plan.args.slice(6, 9)).toEqual(['powershell.exe', '-NoExit', '-Command']);
    expect(plan.args.at(-1)).toBe("Set-Location -LiteralPath 'C:\\Users\\me\\a\\;b proj'\\; codex (Get-Content -Raw -LiteralPath 'C:\\Temp\\b.md')");
  });

  it('PowerShell: -NoExit -Command with the copyable command', () => {
    const plan = planLaunch({ agent: 'opencode', cwd: 'C:\\p', briefFile: 'C:\\b.md' }, { id: 'powershell', file: 'powershell.exe' }, 'win32');
    expect(plan.args).toEqual(['-NoExit', '-Command', plan.command]);
  });

  it.each([
    ['gnome-terminal', ['--title', 'Baton → Claude Code', '--working-directory', req.cwd, '--', 'sh', '-c']],
    ['konsole', ['--workdir', req.cwd, '-e', 'sh', '-c']],
    ['xterm', ['-T', 'Baton → Claude Code', '-e', 'sh', '-c']],
    ['x-terminal-emulator', ['-e', 'sh', '-c']],
  ] as const)('Linux %s: sh -c with the command, holding the window open on failure', (id, head) => {
    const plan = planLaunch(req, { id, file: path.posix.join('/usr/bin', id) }, 'linux');
    expect(plan.args.slice(0, -1)).toEqual(head);
    expect(plan.args.at(-1)?.startsWith(`${plan.command} || {`)).toBe(true);
    expect(plan.cwd).toBe(req.cwd);
  });
});
