import { describe, expect, it } from 'vitest';
import { fileEffects, shellCommand } from './tool-input.js';
import { classifyCommand, exitCodeOf } from './verification.js';
import { openCommand, shellQuote } from './targets.js';
import { stalenessBand } from './staleness.js';

describe('reading tool calls as the adapters store them', () => {
  it('finds the files of write/edit/patch calls of every agent', () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Delete File: old.ts\n*** Update File: b.ts\n*** Move to: c.ts\n*** Add File: d.md\n+hi\n*** End Patch\n';
    expect(fileEffects('apply_patch', patch)).toEqual([
      { path: 'src/a.ts', action: 'patched' },
      { path: 'old.ts', action: 'deleted' },
      { path: 'b.ts', action: 'moved' },
      { path: 'c.ts', action: 'patched' },
      { path: 'd.md', action: 'created' },
    ]);
    expect(fileEffects('patch', JSON.stringify({ patchText: patch }))).toHaveLength(5); // OpenCode
    expect(fileEffects('exec_command', JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}EOF` }))).toHaveLength(5); // shell heredoc
    expect(fileEffects('patch', JSON.stringify({ mode: 'replace', path: '/p/x.py', old_string: 'a', new_string: 'b' }))).toEqual([{ path: '/p/x.py', action: 'patched' }]); // Hermes
    expect(fileEffects('write_file', '{"path": "/p/n.md", "content": "x"}')).toEqual([{ path: '/p/n.md', action: 'written' }]);
    expect(fileEffects('edit', '{"filePath":"/p/e.ts","oldString":"a","newString":"b"}')).toEqual([{ path: '/p/e.ts', action: 'edited' }]);
    expect(fileEffects('NotebookEdit', '{"notebook_path":"/p/n.ipynb"}')).toEqual([{ path: '/p/n.ipynb', action: 'edited' }]);
    expect(fileEffects('Read', '{"file_path":"/p/r.ts"}')).toEqual([]);
    expect(fileEffects('create', '{"path":"/p/NOTES.md","file_text":"# N"}')).toEqual([{ path: '/p/NOTES.md', action: 'created' }]); // Copilot CLI
    expect(fileEffects('Write', '{"filepath":"/p/NOTES.md","content":"# N"}')).toEqual([{ path: '/p/NOTES.md', action: 'written' }]); // Continue cn
    expect(fileEffects('view', '{"path":"/p/README.md"}')).toEqual([]);
    expect(fileEffects('Write', 'not json at all')).toEqual([]);
    expect(fileEffects('Write', '{"file_path": truncated')).toEqual([]);
  });

  it('reads shell commands and classifies verification runs', () => {
    expect(shellCommand('exec_command', '{"cmd":"npm test","workdir":"/p"}')).toBe('npm test');
    expect(shellCommand('shell', '{"command":["bash","-lc","cargo test -q"]}')).toBe('cargo test -q');
    expect(shellCommand('terminal', '{"command": "pytest -x"}')).toBe('pytest -x');
    expect(shellCommand('run_shell_command', '{"command":"npm test","description":"Run the tests"}')).toBe('npm test');
    expect(shellCommand('Execute', '{"command":"git status","summary":"s","riskLevel":"low"}')).toBe('git status'); // Factory Droid
    expect(fileEffects('Create', '{"file_path":"NOTES.md","content":"x"}')).toEqual([{ path: 'NOTES.md', action: 'created' }]); // Factory Droid
    expect(shellCommand('Read', '{"file_path":"/x"}')).toBeNull();
    expect(classifyCommand('npx vitest run src')).toBe('test');
    expect(classifyCommand('npx tsc -p . --noEmit')).toBe('typecheck');
    expect(classifyCommand('npm run lint')).toBe('lint');
    expect(classifyCommand('npm run build')).toBe('build');
    expect(classifyCommand('git status')).toBeNull();
    expect(exitCodeOf('Chunk ID: 1\nProcess exited with code 2\nOutput:')).toBe(2);
    expect(exitCodeOf('Exit code: 0\nWall time')).toBe(0);
    expect(exitCodeOf('{"output": "x", "exit_code": 1}')).toBe(1);
    expect(exitCodeOf('all good')).toBeNull();
  });

  it('quotes cwd paths for the shell and bands checkpoint age', () => {
    expect(shellQuote("/home/ana/it's here")).toBe(`'/home/ana/it'\\''s here'`);
    expect(openCommand('hermes', '/a b')).toBe("cd '/a b' && hermes");
    expect(openCommand('claude', null)).toBe('claude');
    const now = new Date('2026-11-22T12:00:00Z');
    const ago = (h: number) => new Date(now.getTime() - h * 3_600_000);
    expect([1, 23.9, 24, 71, 72, 168, 169].map((h) => stalenessBand(ago(h), now))).toEqual([
      'fresh', 'fresh', 'slightly_stale', 'slightly_stale', 'stale', 'stale', 'very_stale',
    ]);
  });
});

describe("Cline's tools", () => {
  it('editor writes a file, or edits one when it names the old text', () => {
    expect(fileEffects('editor', JSON.stringify({ path: 'NOTES.md', new_text: '# Notes' }))).toEqual([{ path: 'NOTES.md', action: 'written' }]);
    expect(fileEffects('editor', JSON.stringify({ path: 'a.ts', old_text: 'x', new_text: 'y' }))).toEqual([{ path: 'a.ts', action: 'edited' }]);
  });

  it('run_commands gives its commands, in order', () => {
    expect(shellCommand('run_commands', JSON.stringify({ commands: ['git status', 'npm test'] }))).toBe('git status; npm test');
    expect(shellCommand('run_commands', JSON.stringify({ commands: [] }))).toBeNull();
  });
});
