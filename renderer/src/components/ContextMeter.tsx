import type { SessionUsage } from '../../../shared/usage.js';
import { compactTokens, fillLevel } from '../../../shared/usage-format.js';

/** A small bar: how full a live session's context window is (its last request's prompt). */
export function ContextMeter({ usage, threshold }: { usage: SessionUsage; threshold?: number }) {
  if (usage.contextPercent === null) return null;
  const percent = usage.contextPercent;
  const label = `Context ${Math.round(percent)} % full`;
  const detail = usage.contextTokens !== null && usage.contextWindow !== null ? ` (${compactTokens(usage.contextTokens)} of ${compactTokens(usage.contextWindow)} tokens)` : '';
  return (
    <span className="context-meter" data-level={fillLevel(percent, threshold)} title={`${label}${detail}`}>
      <span
        className="context-meter-bar"
        role="meter"
        aria-label="Context window used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={`${Math.round(percent)} %`}
      >
        <span style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
      <span className="context-meter-label">{Math.round(percent)}%</span>
    </span>
  );
}
