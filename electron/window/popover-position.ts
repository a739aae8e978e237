/**
 * Where the popover window goes, from the tray icon's bounds, the display's work area and the
 * window size. macOS: centred under the menu-bar icon. Windows: next to the icon on the side
 * facing the work area (the taskbar may be on any edge). Linux: trays rarely report bounds, so
 * the top-right corner (where most panels keep the tray) unless real bounds say otherwise.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PopoverInput {
  platform: NodeJS.Platform;
  /** Tray icon bounds in screen coordinates; empty (0×0) where the platform does not report them. */
  tray: Rect;
  /** Work area of the display the tray is on (screen minus menu bar / taskbar / panels). */
  workArea: Rect;
  window: { width: number; height: number };
  /** Gap between icon and window. */
  margin?: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

export type TaskbarEdge = 'top' | 'bottom' | 'left' | 'right';

/** The work-area edge the tray icon sits beyond (or nearest to). */
export function trayEdge(tray: Rect, workArea: Rect): TaskbarEdge {
  const cx = tray.x + tray.width / 2;
  const cy = tray.y + tray.height / 2;
  if (cy >= workArea.y + workArea.height) return 'bottom';
  if (cy <= workArea.y) return 'top';
  if (cx <= workArea.x) return 'left';
  if (cx >= workArea.x + workArea.width) return 'right';
  // Inside the work area (auto-hidden taskbar): the nearest edge.
  const distances: [TaskbarEdge, number][] = [
    ['top', cy - workArea.y],
    ['bottom', workArea.y + workArea.height - cy],
    ['left', cx - workArea.x],
    ['right', workArea.x + workArea.width - cx],
  ];
  distances.sort((a, b) => a[1] - b[1]);
  return distances[0]![0];
}

export function popoverPosition(input: PopoverInput): { x: number; y: number } {
  const { tray, workArea: area, window: win } = input;
  const margin = input.margin ?? 4;
  const maxX = area.x + area.width - win.width;
  const maxY = area.y + area.height - win.height;
  const hasBounds = tray.width > 0 && tray.height > 0;

  if (!hasBounds) {
    // No icon position (most Linux trays): top-right corner of the work area.
    return { x: Math.round(clamp(maxX - margin, area.x, maxX)), y: Math.round(clamp(area.y + margin, area.y, maxY)) };
  }

  const centredX = tray.x + tray.width / 2 - win.width / 2;
  const centredY = tray.y + tray.height / 2 - win.height / 2;
  const edge = input.platform === 'darwin' ? 'top' : trayEdge(tray, area);
  let x: number;
  let y: number;
  switch (edge) {
    case 'top':
      x = centredX;
      y = tray.y + tray.height + margin;
      break;
    case 'bottom':
      x = centredX;
      y = tray.y - win.height - margin;
      break;
    case 'left':
      x = tray.x + tray.width + margin;
      y = centredY;
      break;
    case 'right':
      x = tray.x - win.width - margin;
      y = centredY;
      break;
  }
  return { x: Math.round(clamp(x, area.x, maxX)), y: Math.round(clamp(y, area.y, maxY)) };
}
