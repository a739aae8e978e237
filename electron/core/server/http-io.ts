/** Small, careful request/response helpers: bounded body reads and JSON replies without stack traces. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiErrorCode } from '../../../shared/contract.js';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** Reads the whole body, refusing (without buffering further) once it passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        // The caller drains the rest (drainBody) before it answers.
        stop();
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      stop();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * A refused body is still read (and dropped) up to this much, so the client, which may still be
 * sending it, reads the 413 instead of a reset: closing a socket with unread bytes in its receive
 * buffer makes the kernel answer with RST, and the client then loses the response.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Reads and drops the rest of a request body. Resolves true once the request ended, false when it
 * is larger than `limit` bytes (counted from here), takes longer than `timeoutMs`, or was aborted.
 */
export function drainBody(req: IncomingMessage, limit = DRAIN_LIMIT_BYTES, timeoutMs = DRAIN_TIMEOUT_MS): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let dropped = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      dropped += chunk.length;
      if (dropped > limit) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(req.readableEnded);
    const timer = setTimeout(() => finish(false), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.resume();
  });
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

export function sendError(res: ServerResponse, status: number, code: ApiErrorCode, message: string, details?: unknown): void {
  sendJson(res, status, { error: details === undefined ? { code, message } : { code, message, details } });
}
