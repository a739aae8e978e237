/**
 * Test support for read-ahead.test.ts and index-service.test.ts: an adapter module
 * (`createAdapters(config, environment, faults)`) whose adapters are the real registry adapters,
 * except that inside a worker thread they can kill that thread after a unit's first batch or as it
 * lists the stores, throw while reading a unit, or run it out of heap — so tests can crash the
 * read-ahead or ingest worker, or fail a read, at a chosen point. On the main thread they never fault.
 */
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import type { Environment } from '../electron/core/paths.js';
import { createAdapters as createRegistryAdapters, type SourcesConfig } from '../electron/core/ingest/registry.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../electron/core/sources/types.js';

export interface Faults {
  /** Exit the worker thread right after posting this unit's first batch. */
  exitAfterFirstBatchOf?: string;
  /** Throw this unit's read (before any batch). */
  throwOn?: string;
  /** Allocate without bound when reading this unit (the worker's heap cap must end it). */
  exhaustHeapAt?: string;
  /** End the worker thread when it lists units; once only if a marker file path is given (created then). */
  exitOnList?: { onceMarker?: string };
}

export function createAdapters(config: SourcesConfig, environment: Environment, faults: Faults = {}): SourceAdapter[] {
  return createRegistryAdapters(config, environment).map((adapter) => faulty(adapter, faults));
}

function faulty(adapter: SourceAdapter, faults: Faults): SourceAdapter {
  return {
    agent: adapter.agent,
    roots: () => adapter.roots(),
    listUnits: () => {
      const once = faults.exitOnList?.onceMarker;
      if (!isMainThread && faults.exitOnList && !(once && fs.existsSync(once))) {
        if (once) fs.writeFileSync(once, '');
        process.exit(4);
      }
      return adapter.listUnits();
    },
    status: () => adapter.status(),
    read: (unit: SourceUnit, ctx: ReadContext) => read(adapter, unit, ctx, faults),
  };
}

async function* read(adapter: SourceAdapter, unit: SourceUnit, ctx: ReadContext, faults: Faults): AsyncGenerator<ReadBatch> {
  if (!isMainThread && unit.path === faults.throwOn) throw new Error(`injected read failure for ${unit.path}`);
  if (!isMainThread && unit.path === faults.exhaustHeapAt) {
    const hog: string[][] = [];
    for (;;) hog.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hog.length}`));
  }
  let first = true;
  for await (const batch of adapter.read(unit, ctx)) {
    yield batch;
    if (first && !isMainThread && unit.path === faults.exitAfterFirstBatchOf) {
      // The batch was posted on yield; give it a moment to leave before the thread dies.
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.exit(3);
    }
    first = false;
  }
}
