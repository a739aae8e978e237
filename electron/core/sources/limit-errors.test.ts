import { describe, expect, it } from 'vitest';
import { classifyApiError } from './limit-errors.js';

describe('classifyApiError: structured fields first, text as the fallback', () => {
  it('tells limits from an overloaded server and other API errors', () => {
    expect(classifyApiError({ status: 429, type: 'rate_limit_error', code: 'rate_limit' })).toEqual({ class: 'limit', kind: 'rate_limit' });
    expect(classifyApiError({ status: 529, type: 'overloaded_error', code: 'overloaded', text: 'API Error: Repeated 529 Overloaded errors' })).toEqual({ class: 'overloaded' });
    expect(classifyApiError({ status: 500, type: 'api_error', text: 'Internal server error' })).toEqual({ class: 'other' });
    expect(classifyApiError({ status: 400, type: 'invalid_request_error', text: 'prompt is too long' })).toEqual({ class: 'other' });
  });

  it('names the kind: usage window, quota/billing, rate', () => {
    expect(classifyApiError({ code: 'usage_limit_exceeded', text: 'You’ve hit your usage limit.' })).toEqual({ class: 'limit', kind: 'usage_limit' });
    expect(classifyApiError({ status: 429, type: 'RESOURCE_EXHAUSTED', text: 'You exceeded your current quota' })).toEqual({ class: 'limit', kind: 'quota' });
    expect(classifyApiError({ status: 400, type: 'invalid_request_error', code: 'billing_error', text: 'Your credit balance is too low' })).toEqual({ class: 'limit', kind: 'quota' });
    expect(classifyApiError({ status: 402, text: 'Insufficient credits' })).toEqual({ class: 'limit', kind: 'quota' });
    expect(classifyApiError({ status: 429, text: 'Too many requests' })).toEqual({ class: 'limit', kind: 'rate_limit' });
  });

  it('reads an older build’s words alone, but never a server error that mentions nothing of a limit', () => {
    expect(classifyApiError({ text: 'Claude AI usage limit reached|1767294000' })).toEqual({ class: 'limit', kind: 'usage_limit' });
    expect(classifyApiError({ text: "You've hit your limit · resets 7pm (Europe/Berlin)" })).toEqual({ class: 'limit', kind: 'usage_limit' });
    expect(classifyApiError({ text: 'Overloaded' })).toEqual({ class: 'overloaded' });
    expect(classifyApiError({ text: 'Connection error.' })).toEqual({ class: 'other' });
  });
});
