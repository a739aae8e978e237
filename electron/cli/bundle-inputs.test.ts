// `bin/baton.mjs` runs the bundle in dist/cli/ only while it is a build of the sources as they are
// now: the build's record of its inputs (bin/cli-bundle-inputs.mjs) against the files themselves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/fixture-home.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const inputsModule = pathToFileURL(path.join(repo, 'bin', 'cli-bundle-inputs.mjs')).href;
type Stat = { mtimeMs: number; size: number };
type InputsModule = {
  INPUTS_FILE: string;
  statTree(root: string, rels: string[]): Map<string, Stat>;
  inputsManifest(root: string, inputs: string[], before: Map<string, Stat>, extras?: string[]): object | null;
  bundleIsCurrent(root: string, bundleDir?: string): boolean;
};
const load = async () => (await import(inputsModule)) as InputsModule;

const write = (root: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
/** Moves a file's mtime without touching its content (a `touch`, a checkout of the same bytes). */
const touch = (root: string, rel: string, secondsAhead: number) => {
  const at = new Date(Date.now() + secondsAhead * 1000);
  fs.utimesSync(path.join(root, rel), at, at);
};

/** A "build" of `inputs`: the manifest the real build writes beside its bundle. */
async function record(root: string, inputs: string[], extras: string[] = []): Promise<void> {
  const m = await load();
  const before = m.statTree(root, ['src', ...extras]);
  const manifest = m.inputsManifest(root, inputs, before, extras);
  expect(manifest).not.toBeNull();
  write(root, path.join('dist', 'cli', m.INPUTS_FILE), JSON.stringify(manifest));
}

describe('CLI bundle inputs', () => {
  const tmp = makeTempDir('baton-bundle-inputs-');
  afterAll(() => tmp.cleanup());
  let n = 0;
  const freshRoot = () => {
    const root = path.join(tmp.dir, `root-${n++}`);
    write(root, 'src/a.ts', 'export const a = 1;\n');
    write(root, 'src/b.ts', "import { a } from './a.js';\nexport const b = a;\n");
    write(root, 'package.json', '{ "type": "module" }\n');
    return root;
  };

  it('is stale without a record, current after one', async () => {
    const { bundleIsCurrent } = await load();
    const root = freshRoot();
    expect(bundleIsCurrent(root)).toBe(false);
    await record(root, ['src/a.ts', 'src/b.ts'], ['package.json']);
    expect(bundleIsCurrent(root)).toBe(true);
  });

  it('goes by content: a touch keeps it current, an edit of the same size does not, undoing the edit does', async () => {
    const { bundleIsCurrent } = await load();
    const root = freshRoot();
    await record(root, ['src/a.ts', 'src/b.ts']);
    touch(root, 'src/a.ts', 60);
    expect(bundleIsCurrent(root)).toBe(true);
    write(root, 'src/a.ts', 'export const a = 2;\n');
    expect(bundleIsCurrent(root)).toBe(false);
    write(root, 'src/a.ts', 'export const a = 1;\n');
    expect(bundleIsCurrent(root)).toBe(true);
    write(root, 'src/a.ts', 'export const a = 10;\n');
    expect(bundleIsCurrent(root)).toBe(false);
  });

  it('is stale when an input is deleted or a build extra (package.json) changes', async () => {
    const { bundleIsCurrent } = await load();
    const root = freshRoot();
    await record(root, ['src/a.ts', 'src/b.ts'], ['package.json']);
    write(root, 'package.json', '{ "type": "commonjs" }\n');
    expect(bundleIsCurrent(root)).toBe(false);
    write(root, 'package.json', '{ "type": "module" }\n');
    expect(bundleIsCurrent(root)).toBe(true);
    fs.rmSync(path.join(root, 'src', 'b.ts'));
    expect(bundleIsCurrent(root)).toBe(false);
  });

  it('is stale when a file that an import could now resolve to appears beside an input; tests and dotfiles do not count', async () => {
    const { bundleIsCurrent } = await load();
    const root = freshRoot();
    await record(root, ['src/a.ts', 'src/b.ts']);
    write(root, 'src/a.test.ts', 'test\n');
    write(root, 'src/.a.ts.swp', 'swap\n');
    expect(bundleIsCurrent(root)).toBe(true);
    // `import './a.js'` resolves to a.js before a.ts once there is one.
    write(root, 'src/a.js', 'export const a = 3;\n');
    expect(bundleIsCurrent(root)).toBe(false);
    fs.rmSync(path.join(root, 'src', 'a.js'));
    expect(bundleIsCurrent(root)).toBe(true);
  });

  it('gives no record to a build during which an input changed', async () => {
    const m = await load();
    const root = freshRoot();
    const before = m.statTree(root, ['src']);
    write(root, 'src/a.ts', 'export const a = 12345;\n');
    expect(m.inputsManifest(root, ['src/a.ts', 'src/b.ts'], before)).toBeNull();
  });

  it('rejects a record of another format', async () => {
    const { bundleIsCurrent, INPUTS_FILE } = await load();
    const root = freshRoot();
    await record(root, ['src/a.ts']);
    const file = path.join(root, 'dist', 'cli', INPUTS_FILE);
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), version: 0 }));
    expect(bundleIsCurrent(root)).toBe(false);
  });

  it('bin/baton.mjs runs the bundle while it is current and the sources once they changed, never a stale bundle', async () => {
    // A checkout of its own: bin/ from this one, node_modules (tsx) linked, one-line "CLI" sources and bundle.
    const root = path.join(tmp.dir, 'checkout');
    for (const f of ['baton.mjs', 'cli-bundle-inputs.mjs']) write(root, path.join('bin', f), fs.readFileSync(path.join(repo, 'bin', f), 'utf8'));
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'));
    write(root, 'package.json', '{ "type": "module" }\n');
    const cli = (from: string) => `export async function runCli(argv) { process.stdout.write(${JSON.stringify(from)} + ' ' + argv.join(' ') + '\\n'); return 0; }\n`;
    write(root, 'electron/cli/main.ts', cli('sources v1'));
    write(root, 'dist/cli/main.js', cli('bundle of v1'));
    const m = await load();
    const before = m.statTree(root, ['electron']);
    write(root, path.join('dist', 'cli', m.INPUTS_FILE), JSON.stringify(m.inputsManifest(root, ['electron/cli/main.ts'], before)));
    const run = () => {
      const r = spawnSync(process.execPath, [path.join(root, 'bin', 'baton.mjs'), 'list'], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.trim();
    };
    expect(run()).toBe('bundle of v1 list');
    write(root, 'electron/cli/main.ts', cli('sources v2'));
    expect(run()).toBe('sources v2 list');
  });
});
