import { describe, expect, it } from 'vitest';
import { AGENTS, BRIEF_TARGETS } from '../../../shared/model.js';
import { featuredTargets, FEATURED_AGENTS, moreTargets } from './featured-targets.js';

const store = (agent: (typeof AGENTS)[number], sessions: number, host?: string) => ({ agent, sessions, ...(host ? { host } : {}) });

describe('featuredTargets (the target picker’s one row)', () => {
  it('holds Generic and the agents with the most sessions on this machine, in the canonical order', () => {
    const sources = [store('claude', 3), store('droid', 40), store('codex', 12), store('letta', 7), store('qwen', 1), store('pi', 9)];
    expect(featuredTargets({ sources, defaultTarget: 'generic' })).toEqual(['generic', 'codex', 'pi', 'droid', 'letta']);
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
