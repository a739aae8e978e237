/**
 * Typing into Letta Code's TUI (in tmux): keys sent before its input box is live are dropped
 * without a trace, and nothing on screen says when it becomes live. So text is typed again until
 * the input line shows it (a dropped attempt leaves the line empty, so nothing doubles).
 */
import type { Tui } from './tmux-tui.js';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function typeIntoLetta(tui: Tui, text: string, attempts = 10): Promise<void> {
  const shown = new RegExp(`› ${escape(text)}\\s*$`, 'm');
  for (let attempt = 0; ; attempt++) {
    tui.type(text);
    try {
      await tui.waitFor(shown, 3000);
      return;
    } catch (err) {
      if (attempt >= attempts) throw err;
    }
  }
}
