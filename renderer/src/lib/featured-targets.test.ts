import { describe, expect, it } from 'vitest';
import { AGENTS, BRIEF_TARGETS } from '../../../shared/model.js';
import { featuredTargets, FEATURED_AGENTS, moreTargets } from './featured-targets.js';

const store = (agent: (typeof AGENTS)[number], sessions: number, host?: string) => ({ agent, sessions, ...(host ? { host } : {}) });

describe('featuredTargets (the target picker’s one row)', () => {
  it('holds Generic and the agents with the most sessions on this machine, in the canonical order', () => {
    const sources = [store('claude', 3), store('droid', 40), store('codex', 12), store('letta', 7), store('qwen', 1), store('pi', 9)];
    expect(featuredTargets({ sources, defaultTarget: 'generic' })).toEqual(['generic', 'codex', 'pi', 'droid', 'letta']);
  });

  it('ranks the agents worked with most recently first, however many sessions the others hold', () => {
    const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const sources = [
      { ...store('claude', 500), latestAt: at(2) },
      { ...store('codex', 3), latestAt: at(26) },
      { ...store('kilo', 1), latestAt: at(27) },
      { ...store('droid', 40), latestAt: at(20) },
      { ...store('pi', 9), latestAt: null },
      { ...store('qwen', 2), latestAt: at(25) },
    ];
    expect(featuredTargets({ sources, defaultTarget: 'generic' })).toEqual(['generic', 'codex', 'qwen', 'kilo', 'droid']);
    // The same time: more sessions first; no time at all ranks after every timed store.
    expect(featuredTargets({ sources: [{ ...store('gemini', 1), latestAt: at(5) }, { ...store('cline', 4), latestAt: at(5) }, store('letta', 90)], defaultTarget: undefined, limit: 2 })).toEqual(['generic', 'gemini', 'cline']);
    expect(featuredTargets({ sources: [{ ...store('gemini', 1), latestAt: at(5) }, { ...store('cline', 4), latestAt: at(5) }, store('letta', 90)], defaultTarget: undefined, limit: 1 })).toEqual(['generic', 'cline']);
  });

  it('always holds the default target, even with few sessions', () => {
    const sources = [store('claude', 3), store('droid', 40), store('codex', 12), store('letta', 7), store('pi', 9)];
    expect(featuredTargets({ sources, defaultTarget: 'claude' })).toEqual(['generic', 'claude', 'codex', 'pi', 'droid']);
    expect(featuredTargets({ sources: [], defaultTarget: 'hermes' })).toEqual(['generic', 'hermes']);
  });

  it('ignores empty stores, and stores on other machines while this one has any; breaks ties in the canonical order', () => {
    const sources = [store('copilot', 0), store('kilo', 50, 'build-box'), store('gemini', 2), store('cline', 2), store('hermes', 2)];
    expect(featuredTargets({ sources, defaultTarget: undefined, limit: 2 })).toEqual(['generic', 'hermes', 'gemini']);
    // A store read on two roots of this machine counts once, summed.
    expect(featuredTargets({ sources: [store('cline', 2), store('cline', 2), store('gemini', 3)], defaultTarget: undefined, limit: 1 })).toEqual(['generic', 'cline']);
  });

  it('shows fewer agents rather than unused ones', () => {
    expect(featuredTargets({ sources: [store('continue', 5), store('claude', 0)], defaultTarget: 'generic' })).toEqual(['generic', 'continue']);
    expect(featuredTargets({ sources: [], defaultTarget: undefined })).toEqual(['generic']);
  });

  it('with sessions only on other machines, their agents', () => {
    const sources = [store('claude', 0), store('kilo', 3, 'build-box'), store('codex', 9, 'laptop')];
    expect(featuredTargets({ sources, defaultTarget: undefined })).toEqual(['generic', 'codex', 'kilo']);
  });

  it('holds at most FEATURED_AGENTS agents by default', () => {
    const sources = AGENTS.map((agent, i) => store(agent, i + 1));
    const featured = featuredTargets({ sources, defaultTarget: 'claude' });
    expect(featured).toHaveLength(FEATURED_AGENTS + 1);
    expect(featured).toEqual(['generic', 'claude', ...AGENTS.slice(-(FEATURED_AGENTS - 1))]);
  });

  it('leaves every other target to the More menu, each once', () => {
    const featured = featuredTargets({ sources: [store('droid', 4), store('pi', 2)], defaultTarget: 'letta' });
    const more = moreTargets(featured);
    expect([...featured, ...more].sort()).toEqual([...BRIEF_TARGETS].sort());
    expect(more).toEqual(AGENTS.filter((a) => !['droid', 'pi', 'letta'].includes(a)));
  });
});
