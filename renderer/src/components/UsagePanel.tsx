/** The previewed session's usage: tokens by kind, cost, models, and its context over its requests. */
import type { SessionUsage } from '../../../shared/usage.js';
import { useApp } from '../store/context.js';
import { compactTokens, compactionPoints, formatCost, sparklinePoints } from '../../../shared/usage-format.js';
import { ContextMeter } from './ContextMeter.js';

const WIDTH = 240;
const HEIGHT = 36;

export function UsagePanel({ sessionId }: { sessionId: string }) {
  const entry = useApp((s) => s.sessionUsage);
  const error = useApp((s) => s.sessionUsageError);
  const threshold = useApp((s) => s.settingsView?.settings.usageAlertContextPercent);
  if (error) return <div className="usage-panel muted">Usage unavailable: {error}</div>;
  if (!entry || entry.for !== sessionId) return null;
  const u = entry.usage;
  if (!u) {
    return (
      <section className="usage-panel" aria-label="Usage">
        <h3>Usage</h3>
        <p className="muted">No token usage recorded for this session.</p>
      </section>
    );
  }
  return (
    <section className="usage-panel" aria-label="Usage">
      <h3>Usage</h3>
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
    </section>
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
