import { describe, expect, it } from 'vitest';
import { httpError } from './http-errors.js';

describe('httpError', () => {
  it('keeps code, message and details from our error body', () => {
    const body = JSON.stringify({ error: { code: 'ambiguous', message: '2 sessions match "demo"', details: ['a', 'b'] } });
    expect(httpError(409, body, 'getSession')).toMatchObject({ code: 'ambiguous', message: '2 sessions match "demo"', details: ['a', 'b'] });
  });

  it('derives the code from the status when the body has none', () => {
    expect(httpError(400, '{"error":{"message":"bad"}}', 'search')).toMatchObject({ code: 'bad_request', message: 'bad' });
    expect(httpError(401, '', 'health')).toMatchObject({ code: 'unauthorized' });
    expect(httpError(502, '<html>Bad gateway</html>', 'health')).toMatchObject({ code: 'internal' });
    expect(httpError(502, '<html>Bad gateway</html>', 'health').message).toBe('health failed: HTTP 502 — <html>Bad gateway</html>');
  });
});
