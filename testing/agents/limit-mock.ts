/**
 * A loopback model API whose plan limit is hit, in the test's own process: every model request gets
 * the 429 its provider sends then. Anthropic Messages: `rate_limit_error` with the unified
 * rate-limit headers and `x-should-retry: false` (as ../shared/mock-llm/limit-mock.js); OpenAI
 * Responses and Chat Completions: `usage_limit_reached` with Codex's `x-codex-primary-*` headers;
 * Gemini: `RESOURCE_EXHAUSTED` with a per-day QuotaFailure (a quota Gemini CLI does not retry);
 * under `/qwen/`, the quota answer of Qwen's own providers ("Free allocated quota exceeded … reset at").
 * The shared mock has no Gemini shape, hence this copy. Requests are kept for assertions.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LimitMock {
  url: string;
  /** Epoch seconds the limit resets at (3 hours after the mock started). */
  resetEpoch: number;
  requests: { method: string; url: string }[];
  stop(): Promise<void>;
}

const RESET_AFTER_S = 3 * 3600;

export async function startLimitMock(): Promise<LimitMock> {
  const resetEpoch = Math.floor(Date.now() / 1000) + RESET_AFTER_S;
  const requests: LimitMock['requests'] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '';
      requests.push({ method: req.method ?? '', url });
      const json = (status: number, headers: Record<string, string>, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (/\/models\/?$/.test(url.split('?')[0]!)) return json(200, {}, { object: 'list', data: [] });
      if (url.startsWith('/qwen/') && url.includes('/chat/completions')) {
        // Qwen's own providers word a plan's quota so (Qwen Code fails fast on "quota … exceeded … reset at").
        const resetAt = new Date(resetEpoch * 1000).toISOString();
        return json(429, {}, { error: { code: 'insufficient_quota', type: 'insufficient_quota', message: `Free allocated quota exceeded. Your quota will reset at ${resetAt}.` } });
      }
      if (url.includes('/responses') || url.includes('/chat/completions')) {
        return json(
          429,
          {
            'x-codex-primary-used-percent': '100',
            'x-codex-primary-window-minutes': '300',
            'x-codex-primary-reset-after-seconds': String(RESET_AFTER_S),
            // What Codex 0.169 reads for the reset time (the shared mock sends only reset-after-seconds).
            'x-codex-primary-reset-at': String(resetEpoch),
          },
          { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetEpoch, resets_in_seconds: RESET_AFTER_S } },
        );
      }
      if (url.includes(':generateContent') || url.includes(':streamGenerateContent') || url.includes(':countTokens') || url.includes('/models/')) {
        return json(429, {}, {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan and billing details.',
            status: 'RESOURCE_EXHAUSTED',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
                violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests', quotaId: 'GenerateRequestsPerDayPerProjectPerModel', quotaValue: '100' }],
              },
            ],
          },
        });
      }
      return json(
        429,
        {
          'anthropic-ratelimit-unified-status': 'rejected',
          'anthropic-ratelimit-unified-reset': String(resetEpoch),
          'anthropic-ratelimit-unified-representative-claim': 'five_hour',
          'retry-after': String(RESET_AFTER_S),
          'x-should-retry': 'false',
        },
        { type: 'error', error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." } },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    resetEpoch,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
