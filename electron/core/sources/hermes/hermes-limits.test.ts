/**
 * Hermes' limit hits: the fixture (testing/fixtures/limits/home/.hermes, see its README) holds what
 * Hermes 0.18.2 leaves after a rate-limit 429 outlasts its retries: the prompt row in state.db and
 * one session-tagged ERROR line in logs/errors.log. Read through the real adapter.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUnit as readAll } from '../../../../testing/read-unit.js';
import { createHermesAdapter } from './index.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../testing/fixtures/limits/home/.hermes');
const SID = '20261127_053058_c30a1b';
/** The log line's time: `2026-11-27 05:31:12,362` in the machine's local time, as Hermes writes it. */
const LOGGED_AT = new Date(2026, 10, 27, 5, 31, 12, 362).toISOString();

let root: string;
beforeEach(() => {
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-hermes-limit-')), '.hermes');
  fs.cpSync(FIXTURE, root, { recursive: true });
});
afterEach(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

async function read(cursor: Parameters<typeof readAll>[2] = null) {
  const adapter = createHermesAdapter([root]);
  const [unit] = await adapter.listUnits();
  return readAll(adapter, unit!, cursor);
}

const errorsLog = () => path.join(root, 'logs', 'errors.log');

describe('Hermes limit hits', () => {
  it('the session-tagged "API call failed after 3 retries. HTTP 429" line is a rate-limit hit of that session', async () => {
    const { batches, diagnostics } = await read();
    expect(diagnostics).toEqual([]);
    const usage = batches.flatMap((b) => b.usage ?? []);
    expect(usage).toEqual([
      expect.objectContaining({ sessionId: `hermes:${SID}`, at: LOGGED_AT, input: 0, output: 0, limits: [expect.objectContaining({ name: 'reached', kind: 'rate_limit', resetsAt: null })] }),
    ]);
    expect(usage[0]!.limits![0]!.note).toContain("HTTP 429: This request would exceed your account's rate limit");
    // The stopped session itself: the prompt and nothing the error could pass for.
    expect(batches.flatMap((b) => b.messages).map((m) => [m.role, m.text])).toEqual([['user', 'say hello']]);
  });

  it('state.db alone records no hit (Hermes keeps no error there); other failures and other sessions are not hits', async () => {
    fs.rmSync(errorsLog());
    expect((await read()).batches.flatMap((b) => b.usage ?? [])).toEqual([]);
    fs.writeFileSync(errorsLog(), [
      `2026-11-27 05:31:12,362 ERROR [${SID}] agent.conversation_loop: API call failed after 3 retries. HTTP 500: Internal server error | provider=anthropic model=m msgs=2 tokens=~1`,
      `2026-11-27 05:31:12,362 WARNING [${SID}] agent.conversation_loop: API call failed after 3 retries. HTTP 429: rate limit | provider=anthropic`,
      '2026-11-27 05:31:12,362 ERROR [20990101_000000_other] agent.conversation_loop: API call failed after 3 retries. HTTP 429: rate limit | provider=anthropic',
    ].join('\n'));
    expect((await read()).batches.flatMap((b) => b.usage ?? [])).toEqual([]);
  });

  it('non-retryable 402 / billing_error failures are quota hits (rotated log read too), a bad request is not; a re-read of the changed session keeps its hits', async () => {
    fs.renameSync(errorsLog(), `${errorsLog()}.1`);
    fs.writeFileSync(errorsLog(), [
      `2026-11-27 06:02:00,001 ERROR [${SID}] agent.conversation_loop: Non-retryable client error: Error code: 402 - {'error': {'message': 'Insufficient credits'}}`,
      `2026-11-27 06:03:00,002 ERROR [${SID}] agent.conversation_loop: Non-retryable client error: Error code: 400 - {'type': 'error', 'error': {'type': 'billing_error', 'message': 'Your credit balance is too low'}}`,
      `2026-11-27 06:04:00,003 ERROR [${SID}] agent.conversation_loop: Non-retryable client error: Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'bad tool schema'}}`,
    ].join('\n'));
    const first = await read();
    const kinds = first.batches.flatMap((b) => b.usage ?? []).map((u) => [u.at, u.limits![0]!.kind]);
    expect(kinds).toEqual([
      [LOGGED_AT, 'rate_limit'],
      [new Date(2026, 10, 27, 6, 2, 0, 1).toISOString(), 'quota'],
      [new Date(2026, 10, 27, 6, 3, 0, 2).toISOString(), 'quota'],
    ]);
    expect((await read(first.cursor)).batches).toEqual([]);
  });
});
