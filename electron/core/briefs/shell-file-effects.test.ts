import { describe, expect, it } from 'vitest';
import { shellFileEffects } from './shell-file-effects.js';
import { gitListing, gitListingFiles } from './git-status-files.js';
import { labelled, withoutLabel } from './item-label.js';

const paths = (cmd: string) => shellFileEffects(cmd).map((e) => `${e.action} ${e.path}`);

describe('files a shell command changed', () => {
  it('reads in-place edits, redirections, tee, moves, copies, deletions and touch', () => {
    expect(paths("sed -i 's|a|b|' src/billing/proration.py")).toEqual(['edited src/billing/proration.py']);
    expect(paths("sed -i.bak -e 's/a/b/' -e 's/c/d/' a.txt b.txt")).toEqual(['edited a.txt', 'edited b.txt']);
    expect(paths("perl -pi -e 's/foo/bar/g' lib/x.pm")).toEqual(['edited lib/x.pm']);
    expect(paths('echo hi > out.txt && echo more >> log/app.log')).toEqual(['written out.txt', 'written log/app.log']);
    expect(paths('npm test 2>&1 | tee test-output.txt')).toEqual(['written test-output.txt']);
    expect(paths('mv src/old.ts src/new.ts; cp a.json b.json')).toEqual(['moved src/old.ts', 'created src/new.ts', 'created b.json']);
    expect(paths('git mv README README.md && git rm -f legacy.py && rm -rf build/tmp.js')).toEqual(['moved README', 'created README.md', 'deleted legacy.py', 'deleted build/tmp.js']);
    expect(paths('touch src/__init__.py')).toEqual(['created src/__init__.py']);
    expect(paths('patch src/a.c < fix.diff')).toEqual(['patched src/a.c']);
  });

  it('reads a heredoc: the file it writes, and the diff `git apply` takes, never the body as commands', () => {
    expect(paths("cat > src/config.py <<'EOF'\nx = 1 > 0\nrm -rf important.txt\nEOF")).toEqual(['written src/config.py']);
    expect(paths('git apply <<EOF\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/src/new.ts\n--- a/src/gone.ts\n+++ /dev/null\nEOF')).toEqual([
      'patched src/a.ts',
      'created src/new.ts',
      'deleted src/gone.ts',
    ]);
  });

  it('places paths after a cd, and gives up on paths after a cd it cannot follow', () => {
    expect(paths('cd services/api && sed -i s/a/b/ main.go')).toEqual(['edited services/api/main.go']);
    expect(paths('cd /srv/app && echo x > /tmp/abs.txt')).toEqual(['written /tmp/abs.txt']);
    expect(paths('cd "$DIR" && echo x > rel.txt')).toEqual([]);
  });

  it('finds nothing in reads, quoted operators, globs, variables and devices', () => {
    for (const cmd of [
      'cat src/a.py',
      "sed -n '1,20p' src/a.py",
      "grep -rn 'a > b' src",
      'echo "x > y.txt"',
      'npm test > /dev/null 2>&1',
      'rm -f *.pyc',
      'echo x > "$OUT"',
      'git diff > /dev/stdout',
      'git apply --check fix.patch',
      'git rm --cached secrets.env',
      'ls -la # > not-a-file.txt',
    ]) expect(paths(cmd), cmd).toEqual([]);
  });
});

describe('files the session’s git listing shows', () => {
  it('knows which commands list changed files', () => {
    expect(gitListing('git status')).toBe('status');
    expect(gitListing('git -C repo status --short')).toBe('status-short');
    expect(gitListing('git --no-pager diff --stat')).toBe('diff-stat');
    expect(gitListing('git diff --name-status HEAD~1')).toBe('diff-name-status');
    expect(gitListing('git diff')).toBeNull();
    expect(gitListing('git status | head')).toBeNull();
    expect(gitListing('git log --stat')).toBeNull();
  });

  it('reads the long and short status, diff --stat, --name-only and --name-status', () => {
    const long =
      'On branch fix/proration\nChanges to be committed:\n  (use "git restore --staged <file>..." to unstage)\n\tnew file:   src/billing/credit.py\n\trenamed:    a.py -> b.py\n\n' +
      'Changes not staged for commit:\n\tmodified:   src/billing/proration.py\n\tdeleted:    old.py\n\nUntracked files:\n  (use "git add <file>..." to include)\n\tnotes.txt\n\tbuild/\n';
    expect(gitListingFiles('status', long).map((f) => `${f.action} ${f.path}`)).toEqual([
      'created src/billing/credit.py',
      'moved a.py',
      'created b.py',
      'modified src/billing/proration.py',
      'deleted old.py',
      'created notes.txt',
    ]);
    expect(gitListingFiles('status-short', ' M src/a.ts\nA  src/b.ts\n D c.ts\n?? d.ts\nR  e.ts -> f.ts\n!! ignored.log\n').map((f) => `${f.action} ${f.path}`)).toEqual([
      'modified src/a.ts',
      'created src/b.ts',
      'deleted c.ts',
      'created d.ts',
      'moved e.ts',
      'created f.ts',
    ]);
    expect(gitListingFiles('diff-stat', ' src/a.ts       | 4 ++--\n .../deep/x.ts  | 2 +-\n src/{old => new}/y.ts | 0\n 2 files changed, 3 insertions(+)\n').map((f) => `${f.action} ${f.path}`)).toEqual([
      'modified src/a.ts',
      'moved src/old/y.ts',
      'created src/new/y.ts',
    ]);
    expect(gitListingFiles('diff-names', 'src/a.ts\nsrc/b.ts\n').map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(gitListingFiles('diff-name-status', 'M\tsrc/a.ts\nD\tgone.ts\nR100\tx.ts\ty.ts\n').map((f) => `${f.action} ${f.path}`)).toEqual(['modified src/a.ts', 'deleted gone.ts', 'moved x.ts', 'created y.ts']);
  });
});

describe('item labels', () => {
  it('says a label once, whatever copy the text already has', () => {
    expect(labelled('Blocker', 'Blocker: the staging DB is down')).toBe('Blocker: the staging DB is down');
    expect(labelled('Blocker', '**Blocker:** Blocker: waiting for the key')).toBe('Blocker: waiting for the key');
    expect(labelled('Blocker', 'Blocked - CI runner is offline')).toBe('Blocker: CI runner is offline');
    expect(labelled('Blocker', 'The CI runner is offline')).toBe('Blocker: The CI runner is offline');
    expect(withoutLabel('Decision', 'Decision: use SQLite')).toBe('use SQLite');
    expect(withoutLabel('Decision', 'Decisions are logged in ADRs')).toBe('Decisions are logged in ADRs');
    expect(labelled('Rejected', 'Rejected: Rejected: Kafka (#12)')).toBe('Rejected: Kafka (#12)');
  });
});
