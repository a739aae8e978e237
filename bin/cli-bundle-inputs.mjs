// Whether dist/cli/ (bin/cli-bundle.mjs) is a build of the sources as they are now, exactly and in a
// few milliseconds: the build records every file esbuild read (its metafile) with mtime, size and
// content hash, and every folder those files sit in with a digest of its listing (a file appearing
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

/** A folder's entries that an import could resolve to: no dotfiles (editor swap files), no tests. */
function listingDigest(dir) {
  const names = fs
    .readdirSync(dir)
    .filter((n) => !n.startsWith('.') && !/\.test\.tsx?$/.test(n))
    .sort();
  return sha1(names.join('\n'));
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
  // esbuild names a file by its real path (node_modules may be a symlink): so does this walk.
  for (const rel of rels) {
    let real;
    try {
      real = fs.realpathSync(path.join(root, rel));
    } catch {
      continue;
    }
    walk(path.relative(root, real));
  }
  return out;
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
    dirs[rel] = [fs.statSync(full).mtimeMs, listingDigest(full)];
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
  for (const [rel, [mtimeMs, size, hash]] of Object.entries(manifest.files)) {
    const full = path.join(root, rel);
    const now = statOf(full);
    if (!now || now.size !== size) return false;
    if (now.mtimeMs !== mtimeMs && sha1(fs.readFileSync(full)) !== hash) return false;
  }
  for (const [rel, [mtimeMs, digest]] of Object.entries(manifest.dirs)) {
    const full = path.join(root, rel);
    const now = statOf(full);
    if (!now) return false;
    if (now.mtimeMs !== mtimeMs && listingDigest(full) !== digest) return false;
  }
  return true;
}
