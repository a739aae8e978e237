/**
 * The CLI's output boundary: commands print what the API or the handoff service returns, and agents
 * run these commands through their shell tool, so every call's result (and failure) passes the one
 * redactor unless the person typed `--no-redact`. Wrapping the object a command reads from, not each
 * print, means a new method or command cannot forget.
 */
import { redactForOutput } from '../core/redaction/redact.js';
import { redactedError } from '../core/server/api-output.js';

/** `target` with every method's (async) result and error redacted; as it is when `reveal`. */
export function redacting<T extends object>(target: T, reveal: boolean): T {
  if (reveal) return target;
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await redactForOutput(await (value as (...a: unknown[]) => unknown).apply(obj, args));
        } catch (err) {
          throw await redactedError(err);
        }
      };
    },
  });
}

/** A failure's message as the CLI prints it: redacted unless the command line said `--no-redact`. */
export async function cliErrorMessage(err: unknown, argv: string[]): Promise<string> {
  const message = err instanceof Error ? err.message : String(err);
  return argv.includes('--no-redact') ? message : redactForOutput(message);
}
