/**
 * How much a decision from the conversation says, for ranking it when a budget cannot show them all:
 * a correction, a decision with its reason, a plain decision or lasting constraint, a passing
 * remark that only holds for a while ("keep the fixtures as they are for now").
 */
import type { Fact } from './conversation-facts.js';

/** Said as holding only for a while ("for now", "yet"): the first to give way to a budget. */
const TEMPORARY = /\b(?:for\s+now|yet|for\s+the\s+moment|at\s+the\s+moment|for\s+today)\b/i;
/** A reason given with the claim ("because …", "X for Y: …"). */
const REASON = /\b(?:because|since|so\s+that|as\s+(?:the|we|it))\b|[:;—–]\s*\S/;
/** A label before the claim ("Decision:", "Ok so the plan is:"): not where its reason starts. */
const LEAD_LABEL = /^[\w' ]{1,30}:\s+/;
/**
 * Where the reason starts: a connective, a colon, dash or semicolon, a new sentence, or a new
 * clause after a comma ("X for Y, it has no wheels yet").
 */
const REASON_START = /\b(?:because|since|so\s+that|as\s+(?:the|we|it))\b|[:;—–]\s|\.\s|,\s+(?:it|it's|they|that|this|which|we|the)\s/i;

/** The claim without its reason: "we'll use X because it has no wheels yet" is no temporary decision. */
export function claimOf(text: string): string {
  const body = text.replace(LEAD_LABEL, '');
  const at = body.search(REASON_START);
  return at > 0 ? body.slice(0, at) : body;
}

/**
 * What a decision carries for the next agent: a correction most (without it the stale form is all
 * the agent knows), then a decision with its reason, a plain decision or lasting constraint, and a
 * temporary instruction least. Only the claim says whether it is temporary: a "yet" in its reason
 * ("… because it has no Python 3.12 wheels yet") does not make the decision a passing remark.
 */
export function factWeight(f: Pick<Fact, 'corrects' | 'kind' | 'text'>): number {
  if (f.corrects.length) return 3;
  if (TEMPORARY.test(claimOf(f.text))) return 0;
  return f.kind === 'decision' && REASON.test(f.text) ? 2 : 1;
}
