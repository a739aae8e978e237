import { describe, expect, it } from 'vitest';
import { popoverPosition, trayEdge } from './popover-position.js';

const win = { width: 400, height: 600 };

describe('popoverPosition', () => {
  it('macOS: centred under the menu-bar icon', () => {
    const pos = popoverPosition({ platform: 'darwin', tray: { x: 1200, y: 0, width: 24, height: 24 }, workArea: { x: 0, y: 25, width: 1440, height: 875 }, window: win });
    expect(pos).toEqual({ x: 1012, y: 28 });
  });

  it('macOS: kept on screen when the icon is near the right edge', () => {
    const pos = popoverPosition({ platform: 'darwin', tray: { x: 1420, y: 0, width: 20, height: 24 }, workArea: { x: 0, y: 25, width: 1440, height: 875 }, window: win });
    expect(pos.x).toBe(1040);
  });

  it('Windows, taskbar at the bottom: above the icon', () => {
    const pos = popoverPosition({ platform: 'win32', tray: { x: 1700, y: 1040, width: 24, height: 40 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 }, window: win });
    expect(pos).toEqual({ x: 1512, y: 436 });
  });

  it('Windows, taskbar at the top, left and right', () => {
    expect(popoverPosition({ platform: 'win32', tray: { x: 1700, y: 0, width: 24, height: 40 }, workArea: { x: 0, y: 40, width: 1920, height: 1040 }, window: win })).toEqual({ x: 1512, y: 44 });
    expect(popoverPosition({ platform: 'win32', tray: { x: 0, y: 900, width: 60, height: 24 }, workArea: { x: 60, y: 0, width: 1860, height: 1080 }, window: win })).toEqual({ x: 64, y: 480 });
    expect(popoverPosition({ platform: 'win32', tray: { x: 1860, y: 900, width: 60, height: 24 }, workArea: { x: 0, y: 0, width: 1860, height: 1080 }, window: win })).toEqual({ x: 1456, y: 480 });
  });

  it('on a secondary display with negative coordinates', () => {
    const pos = popoverPosition({ platform: 'win32', tray: { x: -300, y: 1040, width: 24, height: 40 }, workArea: { x: -1920, y: 0, width: 1920, height: 1040 }, window: win });
    expect(pos).toEqual({ x: -488, y: 436 });
  });

  it('Linux without tray bounds: top-right corner of the work area', () => {
    const pos = popoverPosition({ platform: 'linux', tray: { x: 0, y: 0, width: 0, height: 0 }, workArea: { x: 0, y: 27, width: 1920, height: 1053 }, window: win });
    expect(pos).toEqual({ x: 1516, y: 31 });
  });

  it('a window larger than the work area is pinned to its top-left', () => {
    const pos = popoverPosition({ platform: 'win32', tray: { x: 700, y: 760, width: 24, height: 40 }, workArea: { x: 0, y: 0, width: 800, height: 500 }, window: { width: 900, height: 700 } });
    expect(pos).toEqual({ x: 0, y: 0 });
  });
});

describe('trayEdge', () => {
  it('finds the nearest edge for an auto-hidden taskbar inside the work area', () => {
    expect(trayEdge({ x: 1800, y: 1070, width: 20, height: 10 }, { x: 0, y: 0, width: 1920, height: 1080 })).toBe('bottom');
  });
});
