import { ApiError } from '../../../shared/contract.js';

/** A message for the UI from anything thrown by a call. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unauthorized';
}
