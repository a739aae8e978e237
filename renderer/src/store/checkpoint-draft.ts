/** The checkpoint form's text, turned into createCheckpoint input (one list item per line). */

export interface CheckpointDraft {
  summary: string;
  decisions: string;
  nextSteps: string;
}

export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((line) => line.length > 0);
}

export function checkpointInput(session: string, draft: CheckpointDraft) {
  return {
    session,
    summary: draft.summary.trim(),
    decisions: linesOf(draft.decisions),
    nextSteps: linesOf(draft.nextSteps),
  };
}
