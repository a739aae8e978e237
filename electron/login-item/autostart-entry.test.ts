import { describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, execArg } from './autostart-entry.js';

describe('autostart entry', () => {
  it('leaves plain paths alone and quotes the rest per the Desktop Entry spec', () => {
    expect(execArg('/opt/Baton/baton')).toBe('/opt/Baton/baton');
    expect(execArg('/home/me/My Apps/Baton.AppImage')).toBe('"/home/me/My Apps/Baton.AppImage"');
    expect(execArg('/x/100%/a$b')).toBe('"/x/100%%/a\\\\$b"');
    expect(execArg('C:\\odd')).toBe('"C:\\\\\\\\odd"');
  });

  it('writes a complete entry into XDG_CONFIG_HOME/autostart', () => {
    const entry = autostartEntry(['/usr/bin/electron', '/home/me/baton']);
    expect(entry.split('\n')).toContain('Exec=/usr/bin/electron /home/me/baton');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\nName=Baton\n')).toBe(true);
    expect(autostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe('/cfg/autostart/baton.desktop');
    expect(autostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/baton.desktop');
  });
});
