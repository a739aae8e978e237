// Whether dist/cli/ (bin/cli-bundle.mjs) is a build of the sources as they are now, exactly and in a
// few milliseconds: the build records every file esbuild read (its metafile) with mtime, size and
// content hash, and every folder those files sit in with its listing (a file appearing
// beside an input can change what an import resolves to). The check stats only those (~300 paths,
// no walk of the tree); a path whose mtime moved is hashed again, so a touch or a checkout of the
// same content does not cost a stale run. Files that no input imports (tests, new modules nothing
// uses yet) cannot change the bundle and are not looked at.
// Built-ins come through process.getBuiltinModule, not `import`: an ESM import of node:fs builds
// a facade that loads fs/promises and the streams, a cost `baton --help` would pay for nothing.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

export const INPUTS_FILE = 'inputs.json';
const MANIFEST_VERSION = 1;

function sha1(data) {
  return process.getBuiltinModule('node:crypto').createHash('sha1').update(data).digest('hex');
}

/**
 * A folder's entries that an import could resolve to (no dotfiles such as editor swap files, no
 * tests), as one string: compared as is, so a folder whose mtime moved costs no hashing.
 */
function listing(dir) {
  return fs
    .readdirSync(dir)
    .filter((n) => !n.startsWith('.') && !/\.test\.tsx?$/.test(n))
    .sort()
    .join('/');
}

function statOf(file) {
  const s = fs.statSync(file, { throwIfNoEntry: false });
  return s ? { mtimeMs: s.mtimeMs, size: s.size } : null;
}

/** Every file's stat under the given paths (relative to root): taken before a build starts. */
export function statTree(root, rels) {
  const out = new Map();
  const walk = (rel) => {
    const full = path.join(root, rel);
    const s = fs.statSync(full, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) for (const name of fs.readdirSync(full)) walk(path.join(rel, name));
    else out.set(rel, { mtimeMs: s.mtimeMs, size: s.size });
  };
  for (const rel of rels) {
    const real = realRelative(root, rel);
    if (real !== null) walk(real);
  }
  return out;
}

/**
 * A path relative to root by its real location, or null when there is none: esbuild names a file
 * by its real path (node_modules may be a symlink), and so does the manifest.
 */
export function realRelative(root, rel) {
  try {
    return path.relative(root, fs.realpathSync(path.join(root, rel)));
  } catch {
    return null;
  }
}

/**
 * The manifest of a build whose inputs are `inputs` (paths relative to root; `extras`: files that
 * steer the build without being imported, recorded without their folders), or null when one of
 * them changed while it was being built (its stat now differs from `before`): such a build may mix
 * old and new sources, so it gets no manifest and counts as stale.
 */
export function inputsManifest(root, inputs, before, extras = []) {
  const files = {};
  for (const rel of [...new Set([...inputs, ...extras])].sort()) {
    const full = path.join(root, rel);
    const pre = before.get(rel);
    const now = statOf(full);
    if (!pre || !now || pre.mtimeMs !== now.mtimeMs || pre.size !== now.size) return null;
    const hash = sha1(fs.readFileSync(full));
    const after = statOf(full);
    if (!after || after.mtimeMs !== now.mtimeMs || after.size !== now.size) return null;
    files[rel] = [now.mtimeMs, now.size, hash];
  }
  const dirs = {};
  // Folders of the inputs esbuild resolved, not of the extras (the checkout's root lists build output).
  for (const rel of [...new Set(inputs.map((f) => path.dirname(f)))].sort()) {
    const full = path.join(root, rel);
    dirs[rel] = [fs.statSync(full).mtimeMs, listing(full)];
  }
  return { version: MANIFEST_VERSION, files, dirs };
}

/** True when the bundle in `bundleDir` was built from the sources under `root` as they are now. */
export function bundleIsCurrent(root, bundleDir = path.join(root, 'dist', 'cli')) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(bundleDir, INPUTS_FILE), 'utf8'));
  } catch {
    return false;
  }
  if (manifest?.version !== MANIFEST_VERSION || !manifest.files || !manifest.dirs) return false;
  // Joined by hand: path.join's normalising, run cold ~300 times, costs more than the stats.
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  for (const [rel, [mtimeMs, size, hash]] of Object.entries(manifest.files)) {
    const full = base + rel;
    const now = statOf(full);
    if (!now || now.size !== size) return false;
    if (now.mtimeMs !== mtimeMs && sha1(fs.readFileSync(full)) !== hash) return false;
  }
  for (const [rel, [mtimeMs, names]] of Object.entries(manifest.dirs)) {
    const full = base + rel;
    const now = statOf(full);
    if (!now) return false;
    if (now.mtimeMs !== mtimeMs && listing(full) !== names) return false;
  }
  return true;
}
