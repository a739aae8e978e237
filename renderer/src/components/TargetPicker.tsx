/**
 * The preview's brief target: Generic and the agents this user works with as one row of radios,
 * every other agent in a "More" menu beside them (a native select: keyboard and screen readers
 * know it). A target picked from the menu shows in the menu itself, whose width is fixed, so
 * changing the target never moves anything.
 */
import { AGENT_LABELS } from '../../../shared/model.js';
import type { BriefTarget } from '../../../shared/settings.js';
import { moreTargets } from '../lib/featured-targets.js';
import { TARGET_LABELS } from '../lib/target-labels.js';
import { Segmented } from './Segmented.js';

const titleOf = (t: BriefTarget): string => (t === 'generic' ? 'Any agent' : AGENT_LABELS[t]);

export function TargetPicker(props: { featured: readonly BriefTarget[]; value: BriefTarget; onChange: (target: BriefTarget) => void }) {
  const { featured, value, onChange } = props;
  const more = moreTargets(featured);
  const inMore = !featured.includes(value);
  return (
    <div className="target-picker">
      <Segmented label="Target agent" options={featured.map((t) => ({ value: t, label: TARGET_LABELS[t], title: titleOf(t) }))} value={value} onChange={onChange} shortcut="t" />
      {more.length > 0 && (
        // Drawn chevron, as the "Open in" menu: the native arrow's room and colour differ by platform and scheme.
        <span className="more-targets">
        <select
          aria-label="More target agents"
          title={inMore ? `Target agent: ${titleOf(value)} (t)` : 'More target agents (t)'}
          data-checked={inMore}
          value={inMore ? value : ''}
          onChange={(e) => {
            const picked = more.find((t) => t === e.target.value);
            if (picked) onChange(picked);
          }}
        >
          <option value="" disabled>
            More…
          </option>
          {more.map((t) => (
            <option key={t} value={t} title={titleOf(t)}>
              {TARGET_LABELS[t]}
            </option>
          ))}
        </select>
        <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
          <path d="M2 3.5 5 6.5 8 3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        </span>
      )}
    </div>
  );
}
