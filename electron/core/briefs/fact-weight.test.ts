/**
 * Ranking decisions for a tight budget: only the claim says whether a decision is temporary; a
 * "yet" or "for now" inside its reason does not make it a passing remark.
 */
import { describe, expect, it } from 'vitest';
import { claimOf, factWeight } from './fact-weight.js';

const decision = (text: string, corrects: number[] = []) => factWeight({ kind: 'decision', text, corrects });
const constraint = (text: string) => factWeight({ kind: 'constraint', text, corrects: [] });

describe('factWeight', () => {
  it('weighs a decision by its claim, not by a temporary word in its reason', () => {
    expect(decision('Going with Pulumi for metrics export because it has no Python 3.12 wheels yet.')).toBe(2);
    expect(decision("Ok so the plan is: we're going with Keycloak for error reporting, it has no Python 3.12 wheels yet.")).toBe(2);
    expect(decision('Decision: Zod for access tokens. The reason is that nothing else works for now.')).toBe(2);
    expect(decision('We will use Redis for sessions; the cluster is not ready yet')).toBe(2);
  });

  it('still puts remarks that hold only for a while last', () => {
    expect(constraint("Don't rename anything in `src/billing/models.py` yet.")).toBe(0);
    expect(decision('Keep the billing fixtures as they are for now, because the data is changing.')).toBe(0);
    expect(decision('For now, we will use the existing helper because it works.')).toBe(0);
    expect(decision('Decision: we use SQLite for now.')).toBe(0);
  });

  it('ranks corrections first, then reasoned decisions, then plain ones', () => {
    expect(decision('Actually, SQLite for now.', [12])).toBe(3);
    expect(decision('We should use the existing `load_rows` helper in billing.')).toBe(1);
    expect(constraint("Don't change the public signature of `check_rules`.")).toBe(1);
  });

  it('cuts the claim at its reason', () => {
    expect(claimOf('Decision: Keycloak for tenant isolation. The reason is that we need it offline.')).toBe('Keycloak for tenant isolation');
    expect(claimOf('I have settled on gRPC for onboarding — finance audits need the history.')).toBe('I have settled on gRPC for onboarding ');
    expect(claimOf('Use Redis')).toBe('Use Redis');
  });
});
