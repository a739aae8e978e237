import { describe, expect, it } from 'vitest';
import { projectName, projectOptions } from './project-labels.js';

describe('projectName', () => {
  it('is the last folder of the cwd on any OS', () => {
    expect(projectName('/home/ana/projects/demo-app')).toBe('demo-app');
    expect(projectName('/home/ana/scratch/')).toBe('scratch');
    expect(projectName('C:\\Users\\ana\\work')).toBe('work');
    expect(projectName('/')).toBe('/');
    expect(projectName(null)).toBe('no project');
  });

  it('lists distinct projects, most used first', () => {
    const options = projectOptions(['/a/x', '/b/y', '/a/x', null, '/c/z', '/b/y', '/a/x']);
    expect(options.map((o) => [o.name, o.count])).toEqual([
      ['x', 3],
      ['y', 2],
      ['z', 1],
    ]);
  });
});
