/**
 * The previewed session's usage: tokens by kind, cost, models, and its context over its requests.
 * Folded by default to a one-line summary (the brief is what the preview is for); the choice is remembered.
 */
import { useId } from 'react';
import type { SessionUsage } from '../../../shared/usage.js';
import { useRememberedFlag } from '../hooks/use-remembered-flag.js';
import { useApp } from '../store/context.js';
import { compactTokens, compactionPoints, formatCost, sparklinePoints } from '../../../shared/usage-format.js';
import { ContextMeter } from './ContextMeter.js';

const WIDTH = 240;
const HEIGHT = 36;

export function UsagePanel({ sessionId }: { sessionId: string }) {
  const entry = useApp((s) => s.sessionUsage);
  const error = useApp((s) => s.sessionUsageError);
  const threshold = useApp((s) => s.settingsView?.settings.usageAlertContextPercent);
  const [open, setOpen] = useRememberedFlag('baton.usagePanelOpen', false);
  const bodyId = useId();
  if (error) return <div className="usage-panel muted">Usage unavailable: {error}</div>;
  if (!entry || entry.for !== sessionId) return null;
  const u = entry.usage;
  if (!u) {
    return (
      <section className="usage-panel" aria-label="Usage">
        <h3 className="usage-summary-line">
          Usage <span className="usage-summary muted">none recorded for this session</span>
        </h3>
      </section>
    );
  }
  return (
    <section className="usage-panel" aria-label="Usage" data-open={open}>
      <h3>
        <button type="button" className="usage-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <svg className="usage-chevron" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
            <path d="M3 1.5 6.5 5 3 8.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Usage
          <span className="usage-summary muted" data-testid="usage-summary">
            {summary(u)}
          </span>
        </button>
      </h3>
      <div id={bodyId} className="usage-details" hidden={!open}>
        {open && <UsageDetails usage={u} threshold={threshold} />}
      </div>
    </section>
  );
}

/** The folded line: total tokens, cost and how full the context is. */
function summary(u: SessionUsage): string {
  const parts = [`${compactTokens(u.totalTokens)} tokens`, formatCost(u.costUSD)];
  if (u.contextPercent !== null) parts.push(`context ${Math.round(u.contextPercent)}%`);
  return parts.join(' · ');
}

function UsageDetails({ usage: u, threshold }: { usage: SessionUsage; threshold?: number }) {
  return (
    <>
      <dl className="usage-kinds">
        <Kind label="Input" value={u.inputTokens} />
        <Kind label="Output" value={u.outputTokens} />
        <Kind label="Cache read" value={u.cacheReadTokens} />
        <Kind label="Cache write" value={u.cacheCreationTokens} />
        {u.reasoningTokens > 0 && <Kind label="Reasoning" value={u.reasoningTokens} />}
        <Kind label="Total" value={u.totalTokens} />
        <div>
          <dt>Cost</dt>
          <dd data-testid="usage-cost" title={u.unpricedModels.length ? `No price for ${u.unpricedModels.join(', ')}` : undefined}>
            {formatCost(u.costUSD)}
            {u.costUSD !== null && u.unpricedModels.length > 0 && ' + unpriced'}
          </dd>
        </div>
      </dl>
      <p className="usage-models">
        <span className="muted">{u.models.length === 1 ? 'Model' : 'Models'}:</span> <span data-testid="usage-models">{u.models.join(', ') || 'unknown'}</span>
        <span className="muted"> · {u.requests.toLocaleString()} requests</span>
      </p>
      {u.contextHistory.length > 0 && <ContextSparkline usage={u} threshold={threshold} />}
    </>
  );
}

function Kind({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd title={`${value.toLocaleString()} tokens`}>{compactTokens(value)}</dd>
    </div>
  );
}

function ContextSparkline({ usage, threshold }: { usage: SessionUsage; threshold?: number }) {
  const history = usage.contextHistory;
  const max = usage.contextWindow ?? Math.max(...history);
  const compactions = compactionPoints(history);
  const step = history.length > 1 ? WIDTH / (history.length - 1) : 0;
  const description = `Context over ${history.length} requests, from ${compactTokens(history[0]!)} to ${compactTokens(history.at(-1)!)} tokens${usage.contextWindow ? ` of ${compactTokens(usage.contextWindow)}` : ''}${compactions.length ? `; ${compactions.length} compaction${compactions.length > 1 ? 's' : ''}` : ''}.`;
  return (
    <div className="usage-context">
      <div className="usage-context-head">
        <span className="muted">Context</span>
        <ContextMeter usage={usage} threshold={threshold} />
        {compactions.length > 0 && (
          <span className="usage-compactions" data-testid="usage-compactions">
            {compactions.length} compaction{compactions.length > 1 ? 's' : ''}
          </span>
        )}
      </div>
      <svg className="sparkline" role="img" aria-label={description} viewBox={`-2 -2 ${WIDTH + 4} ${HEIGHT + 4}`} width={WIDTH} height={HEIGHT} data-points={history.length}>
        <polyline points={sparklinePoints(history, WIDTH, HEIGHT, max)} fill="none" stroke="currentColor" strokeWidth="1.5" />
        {compactions.map((i) => (
          <line key={i} className="compaction-mark" x1={i * step} x2={i * step} y1={0} y2={HEIGHT} />
        ))}
      </svg>
    </div>
  );
}
