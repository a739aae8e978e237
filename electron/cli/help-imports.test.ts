// `baton --help` (and the parsing every command starts with) loads commander and the commands'
// definitions only: what a command needs to run is imported when it runs. Checked on the bundle
// itself (bin/cli-bundle.mjs's options, built in memory): the chunks the entry imports statically.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
type BundleModule = { cliBundleOptions(outdir: string): Parameters<typeof build>[0] };

/** Source files and external modules of every chunk `main` reaches through static imports. */
function staticClosure(meta: Metafile): { sources: Set<string>; externals: Set<string> } {
  const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'electron/cli/main.ts')!;
  const sources = new Set<string>();
  const externals = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const input of Object.keys(meta.outputs[out]!.inputs)) sources.add(input);
    for (const im of meta.outputs[out]!.imports) {
      if (im.kind !== 'import-statement') continue;
      if (im.external) externals.add(im.path);
      else visit(im.path);
    }
  };
  visit(entry);
  return { sources, externals };
}

describe('what `baton --help` loads', () => {
  it('commander (bundled in) and the command definitions; no API client, core, crypto, child_process, HTTP or other package', async () => {
    const { cliBundleOptions } = (await import(pathToFileURL(path.join(repo, 'bin', 'cli-bundle.mjs')).href)) as BundleModule;
    const result = await build({ ...cliBundleOptions(path.join(repo, 'dist', 'cli-help-imports-test')), write: false });
    const { sources, externals } = staticClosure(result.metafile!);
    expect([...sources].some((s) => s.endsWith('commander/lib/command.js'))).toBe(true);
    expect(sources).toContain('electron/cli/commands/brief.ts');
    // Only cheap Node built-ins (node:fs comes as the built-in's object: see bin/cli-bundle.mjs).
    expect([...externals].filter((e) => !['node:path', 'node:os', 'node:url'].includes(e))).toEqual([]);
    const heavy = ['electron/cli/cli-api.ts', 'electron/cli/cli-core.ts', 'electron/core/service.ts', 'electron/core/auth/token-store.ts', 'electron/core/server/http-io.ts', 'electron/core/briefs/tokens.ts', 'electron/core/sessions/short-ids.ts'];
    expect(heavy.filter((h) => sources.has(h))).toEqual([]);
    expect([...sources].filter((s) => s.startsWith('electron/core/index/index-db'))).toEqual([]);
  });
});
