/**
 * The pieces that hold a budget: word-safe clipping, fair section shares, list cutting with
 * counts, the drift bound, and what happens when not even the skeleton fits.
 */
import { describe, expect, it } from 'vitest';
import type { GitDrift } from '../../../shared/api-types.js';
import { ApiError } from '../../../shared/contract.js';
import { boundBriefData, boundDrift, DRIFT_FILES_KEPT } from './bound-brief-data.js';
import { fitBrief } from './fit-brief.js';
import { clipChars, fitList, shareAllowance } from './fit-items.js';
import { redactText } from '../redaction/redact.js';
import { countTokens, cutToTokens, tokenizedChars } from './tokens.js';
import type { BriefData, BriefItem } from './brief-data.js';
import { renderMarkdown } from './render-markdown.js';
import { briefSection } from '../../../testing/briefs/planted-recall.js';

describe('clipChars', () => {
  it('never leaves part of a word (a secret cut in half would escape redaction)', async () => {
    const token = 'ghp_Zx8Qw3Rt5Yu8Io2PlKj7Hg6Fd4Sa1ZxCvBn01';
    const text = `deploy with ${token} now`;
    for (let max = 10; max < text.length; max++) {
      const out = clipChars(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out === '' || out.endsWith('[…]')).toBe(true);
      // Either the whole token or none of it.
      expect(out.includes('ghp_') ? out.includes(token) : true, out).toBe(true);
      expect((await redactText(out)).value).not.toMatch(/Zx8Qw3/);
    }
  });
});

describe('shareAllowance and fitList', () => {
  it('gives small sections all they need and splits the rest', () => {
    expect(shareAllowance([10, 1000, 1000], 610)).toEqual([10, 300, 300]);
    expect(shareAllowance([10, 20], 1000)).toEqual([10, 20]);
    // Weighted: the weight-3 section gets three times the weight-1 section's share of what is left.
    expect(shareAllowance([10, 1000, 1000], 610, [1, 3, 1])).toEqual([10, 450, 150]);
  });

  it('keeps the highest priority items, clips a single huge item, and counts the rest', () => {
    const items = ['old', 'x'.repeat(50_000), 'newest'];
    const { kept, omitted } = fitList(items, { allowance: 500, itemMax: 300, text: (t) => t, withText: (_, t) => t });
    expect(omitted).toBe(0);
    expect(kept[0]).toBe('old');
    expect(kept[1]!.length).toBeLessThanOrEqual(300);
    expect(kept[2]).toBe('newest');
    const many = Array.from({ length: 1000 }, (_, i) => `item ${i}`);
    const cut = fitList(many, { allowance: 100, itemMax: 100, text: (t) => t, withText: (_, t) => t });
    expect(cut.kept.at(-1)).toBe('item 999');
    expect(cut.kept.length + cut.omitted).toBe(1000);
  });
});

describe('boundDrift', () => {
  it('keeps the first files and commits of a 100k-file drift with the true totals', () => {
    const drift: GitDrift = {
      error: null,
      branchSwitched: null,
      commitsSince: Array.from({ length: 5000 }, (_, i) => ({ hash: `h${i}`, subject: `commit ${i}` })),
      filesChangedSince: Array.from({ length: 100_000 }, (_, i) => `src/file-${i}.ts`),
      workTreeChanged: true,
      now: null,
    };
    const bounded = boundDrift(drift);
    expect(bounded.filesChangedSince).toHaveLength(DRIFT_FILES_KEPT);
    expect(bounded.filesChangedTotal).toBe(100_000);
    expect(bounded.commitsTotal).toBe(5000);
    expect(JSON.stringify(bounded).length).toBeLessThan(20_000);
  });
});

describe('fitBrief when the skeleton alone exceeds the budget', () => {
  // Empty sections: the renderers below ignore the data, only the skeleton counts.
  const data: BriefData = {
    session: { id: 'claude:x', agent: 'claude', nativeId: 'x', title: null, cwd: null, gitBranch: null, gitCommit: null, model: null, startedAt: null, updatedAt: null, firstPrompt: null, userTurns: 0, messageCount: 0, toolNames: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, parentId: null, sourcePath: '/x', bytes: 0 },
    now: '2026-11-22T12:00:00.000Z',
    checkpoint: null,
    staleness: null,
    goal: null,
    state: { source: 'none', summary: null, summarySeq: null, lastRequest: null, pendingFiles: [], pendingSince: 'start', nextSteps: [], itemsCompleted: [], limitStop: null },
    compactionSummary: null,
    decisions: [],
    rejected: [],
    open: { blockers: [], itemsAdded: [] },
    files: [],
    filesTotal: 0,
    declaredFiles: [],
    verification: [],
    git: { atCheckpoint: null, drift: null },
    instructionFiles: [],
    excerpt: { total: 0, sampled: false, messages: [], userSeqs: [], covered: [] },
    toolCalls: [],
    omitted: {},
  };
  const skeleton = () => ({ text: 'word '.repeat(5000) });

  it('cuts Markdown at the budget and says so', () => {
    const out = fitBrief(data, 500, skeleton, { kind: 'cut' });
    expect(out.cut).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(500);
    expect(countTokens(out.text)).toBe(out.tokens);
    expect(out.text).toMatch(/brief cut at the 500-token budget/);
  });

  it('refuses a structured format with the smallest budget that would do', () => {
    expect(() => fitBrief(data, 500, skeleton, { kind: 'refuse', format: 'envelope' })).toThrow(ApiError);
    expect(() => fitBrief(data, 500, skeleton, { kind: 'refuse', format: 'envelope' })).toThrow(/The envelope brief of this session needs at least 5,?0\d\d tokens.*the budget is 500/);
  });

  it('cutToTokens tokenizes only a budget-sized prefix of a huge text', () => {
    const before = tokenizedChars();
    const out = cutToTokens('lorem ipsum dolor '.repeat(200_000), 100);
    expect(countTokens(out)).toBeLessThanOrEqual(100);
    expect(tokenizedChars() - before).toBeLessThan(100 * 8 + 2 * out.length + 1);
  });
});

describe('fitBrief when the structured sections exceed the budget', () => {
  const item = (text: string, seq: number): BriefItem => ({ text, source: 'user', seq, corrects: [] });
  const options = ['Redis', 'Kafka', 'Temporal', 'Postgres', 'SQLite', 'Envoy', 'Vault', 'Sentry', 'Zod', 'Prisma'];
  const data: BriefData = {
    session: { id: 'claude:x', agent: 'claude', nativeId: 'x', title: 'Billing', cwd: '/p', gitBranch: 'main', gitCommit: null, model: null, startedAt: null, updatedAt: null, firstPrompt: 'Finish billing.', userTurns: 400, messageCount: 800, toolNames: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, parentId: null, sourcePath: '/x', bytes: 0 },
    now: '2026-11-22T12:00:00.000Z',
    checkpoint: null,
    staleness: null,
    goal: 'Finish billing.',
    state: { source: 'none', summary: null, summarySeq: null, lastRequest: null, pendingFiles: [], pendingSince: 'start', nextSteps: [], itemsCompleted: [], limitStop: null },
    compactionSummary: null,
    decisions: Array.from({ length: 60 }, (_, i) => item(`We decided to use ${options[i % 10]} for area number ${i} because reason ${i} holds.`, 2 * i + 1)),
    rejected: Array.from({ length: 40 }, (_, i) => item(`We will not use ${options[(i + 3) % 10]} for subsystem ${i}: it costs too much.`, 2 * i + 200)),
    open: { blockers: [], itemsAdded: [] },
    files: [],
    filesTotal: 0,
    declaredFiles: [],
    verification: [],
    git: { atCheckpoint: null, drift: null },
    instructionFiles: [],
    excerpt: {
      total: 800,
      sampled: false,
      messages: Array.from({ length: 80 }, (_, i) => ({ seq: 2 * i, role: i % 2 ? 'assistant' : 'user', text: `Message ${i} about the billing work and what changed in it.`, timestamp: null, note: null })),
      userSeqs: Array.from({ length: 40 }, (_, i) => 4 * i),
      covered: [],
    },
    toolCalls: [],
    omitted: {},
  };
  const render = (d: BriefData) => renderMarkdown(d, { target: 'claude', budget: 1500 });
  const decisionsShown = (text: string) => (briefSection(text, 'Settled decisions').match(/^- We decided/gm) ?? []).length;

  it('gives the structured sections what fits, not the excerpt the slack of the last shrinking step', () => {
    const out = fitBrief(data, 1500, render, { kind: 'cut' });
    expect(out.tokens).toBeLessThanOrEqual(1500);
    // The best any allowance can do, found by trying them all in small steps.
    let best = 0;
    for (let allowance = 0; allowance <= 6000; allowance += 40) {
      const r = render(boundBriefData(data, allowance));
      if (r.tokens <= 1500) best = Math.max(best, decisionsShown(r.text));
    }
    expect(best).toBeGreaterThan(5);
    expect(decisionsShown(out.text)).toBeGreaterThanOrEqual(best - 1);
  });

  it('counts each excerpt line once across the renders of one brief, and renders the same text', () => {
    const lineTokens = new Map<string, number>();
    const remembering = (d: BriefData) => renderMarkdown(d, { target: 'claude', budget: 1500, lineTokens });
    const before = tokenizedChars();
    const plain = fitBrief(data, 1500, render, { kind: 'cut' });
    const counted = tokenizedChars() - before;
    const again = tokenizedChars();
    const remembered = fitBrief(data, 1500, remembering, { kind: 'cut' });
    expect(remembered).toEqual(plain);
    expect(lineTokens.size).toBeGreaterThan(40); // the excerpt's lines, counted at the first render
    // Every later round no longer tokenizes the 80 lines (~60 characters each) again.
    expect(counted - (tokenizedChars() - again)).toBeGreaterThan(80 * 50);
  });

  it('renders a brief that fits at the first try once', () => {
    let calls = 0;
    const out = fitBrief(data, 50_000, (d) => (calls++, render(d)), { kind: 'cut' });
    expect(out.cut).toBe(false);
    expect(calls).toBe(1);
  });
});
