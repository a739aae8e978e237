/**
 * What ingest's worker threads share: starting a worker module that sits next to this one (from
 * TypeScript sources — dev, tests, bench — the worker loads tsx first), and building the adapters
 * inside a worker from plain config (`createAdapters(...adapterArgs)` of `adapterModule`).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { SourceAdapter } from '../sources/types.js';

const here = fileURLToPath(import.meta.url);
const runningFromTs = here.endsWith('.ts');

/** How a worker builds its own adapters: structured-cloneable, so it crosses the thread boundary. */
export interface AdapterSource {
  /** File URL of a module exporting `createAdapters(...adapterArgs): SourceAdapter[]`. */
  adapterModule: string;
  /** Structured-cloneable arguments for `createAdapters` (settings-like config, environment). */
  adapterArgs: unknown[];
}

/** The adapter registry, next to this module in both the .ts sources and the compiled dist/. */
export function defaultAdapterModule(): string {
  return pathToFileURL(path.join(path.dirname(here), `registry${runningFromTs ? '.ts' : '.js'}`)).href;
}

/** Starts `<name>.ts|.js` from this folder as a worker thread. */
export function launchWorker(name: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const file = path.join(path.dirname(here), `${name}${runningFromTs ? '.ts' : '.js'}`);
  // `node --cpu-prof …` profiles the ingest workers too (their execArgv is otherwise empty).
  const execArgv = process.execArgv.filter((a) => a.startsWith('--cpu-prof'));
  if (runningFromTs) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    execArgv.push('--import', tsx);
  }
  return new Worker(file, { workerData, execArgv, resourceLimits });
}

/** Inside a worker: the adapters `source` describes. */
export async function loadAdapters(source: AdapterSource): Promise<SourceAdapter[]> {
  const mod = (await import(source.adapterModule)) as { createAdapters?: (...args: unknown[]) => SourceAdapter[] | Promise<SourceAdapter[]> };
  if (typeof mod.createAdapters !== 'function') throw new Error(`${source.adapterModule} does not export createAdapters()`);
  return mod.createAdapters(...source.adapterArgs);
}
