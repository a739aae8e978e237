/**
 * Files a shell command changed, read from the command line alone: in-place edits (`sed -i`,
 * `perl -i`), redirections (`>`, `>>`, `tee`), moves, copies, deletions (`mv`, `cp`, `rm`,
 * `git mv`, `git rm`), `touch`, and patches given inline (`git apply`/`patch` with a heredoc).
 * Reads (`cat`, `grep`, `sed -n`) change nothing and yield nothing; a path that is not one file
 * (a glob, a `$VAR`, /dev/null) is left out rather than guessed. Linear in the command's length.
 */
import path from 'node:path';
import type { FileEffect } from './tool-input.js';

/** A command longer than this is a pasted script: only its start is read. */
const MAX_COMMAND_CHARS = 20_000;

interface Word {
  text: string;
  /** An unquoted operator: `&&`, `||`, `;`, `|`, `&`, newline, `>`, `>>`, `<`, `<<`, `2>`… */
  op: boolean;
}

/** Splits a command into words and operators, honouring quotes and backslashes; heredoc bodies are returned apart. */
function lex(command: string): { words: Word[]; heredocs: string[] } {
  const words: Word[] = [];
  const heredocs: string[] = [];
  const pendingHeredocs: string[] = [];
  let cur = '';
  let inWord = false;
  const flush = () => {
    if (inWord) words.push({ text: cur, op: false });
    cur = '';
    inWord = false;
  };
  const s = command.length > MAX_COMMAND_CHARS ? command.slice(0, MAX_COMMAND_CHARS) : command;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      if (s[i + 1] !== '\n') {
        cur += s[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, end < 0 ? s.length : end);
      inWord = true;
      i = end < 0 ? s.length : end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') {
        if (s[j] === '\\' && j + 1 < s.length) j++;
        cur += s[j];
        j++;
      }
      inWord = true;
      i = j + 1;
    } else if (c === '#' && !inWord) {
      while (i < s.length && s[i] !== '\n') i++;
    } else if (c === '\n') {
      flush();
      words.push({ text: '\n', op: true });
      i++;
      // Heredoc bodies start on the line after their `<<WORD`.
      while (pendingHeredocs.length) {
        const tag = pendingHeredocs.shift()!;
        const lines: string[] = [];
        while (i < s.length) {
          const nl = s.indexOf('\n', i);
          const line = s.slice(i, nl < 0 ? s.length : nl);
          i = nl < 0 ? s.length : nl + 1;
          if (line.replace(/^\t+/, '').trim() === tag) break;
          lines.push(line);
        }
        heredocs.push(lines.join('\n'));
      }
    } else if (/[ \t\r]/.test(c)) {
      flush();
      i++;
    } else if (/[;&|<>()]/.test(c)) {
      // A file-descriptor number glued to a redirection (`2>`, `2>&1`) belongs to the operator.
      const fd = inWord && /^\d$/.test(cur) && (c === '>' || c === '<');
      if (fd) {
        cur = '';
        inWord = false;
      } else flush();
      let op = c;
      const two = s.slice(i, i + 2);
      if (['&&', '||', '>>', '<<', '>&', '&>', '>|'].includes(two)) op = two;
      if (s.slice(i, i + 3) === '<<<') op = '<<<';
      else if (s.slice(i, i + 3) === '&>>') op = '&>>';
      i += op.length;
      if (op === '<<' && s[i] === '-') i++;
      words.push({ text: fd && op.startsWith('>') ? `fd${op}` : op, op: true });
      if (op === '<<') {
        // The heredoc's end word, quoted or not.
        while (s[i] === ' ') i++;
        const m = /^(['"]?)([\w.-]+)\1/.exec(s.slice(i));
        if (m) {
          pendingHeredocs.push(m[2]!);
          words.push({ text: m[2]!, op: false });
          i += m[0].length;
        }
      }
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return { words, heredocs };
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', '\n', '(', ')']);

/** One literal file path, or null for what is not one (globs, variables, devices, options). */
function literalPath(word: string): string | null {
  if (!word || word.startsWith('-') || /[*?[\]$`{}~]/.test(word) || word === '.' || word === '..') return null;
  if (/^\/dev\//.test(word) || /^\/proc\//.test(word)) return null;
  return word;
}

/** Files named in a unified diff (`+++ b/path`, `--- a/path` for deletions). */
function diffFiles(diff: string): FileEffect[] {
  const out: FileEffect[] = [];
  let minus: string | null = null;
  for (const line of diff.split('\n')) {
    const m = /^(---|\+\+\+) (?:[ab]\/)?(\S+)/.exec(line);
    if (!m) continue;
    if (m[1] === '---') minus = m[2]!;
    else if (m[2] === '/dev/null') {
      if (minus && minus !== '/dev/null') out.push({ path: minus, action: 'deleted' });
    } else out.push({ path: m[2]!, action: minus === '/dev/null' ? 'created' : 'patched' });
  }
  return out;
}

/** The operands of a command (options skipped; `--` ends options). `withValue` lists options that take the next word. */
function operands(args: string[], withValue: Set<string> = new Set()): string[] {
  const out: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a.length > 1) {
      if (withValue.has(a)) i++;
    } else out.push(a);
  }
  return out;
}

/** Files an in-place `sed`/`perl` edits: the operands after the script (or all of them with `-e`/`-f`). */
function inPlaceFiles(args: string[], tool: 'sed' | 'perl'): string[] | null {
  const inPlace = args.some((a) => (tool === 'sed' ? /^-(?:[a-zA-Z]*i|-in-place)/.test(a) && !a.startsWith('--e') : /^-[a-zA-Z]*i/.test(a)));
  if (!inPlace) return null;
  let scriptGiven = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[a-zA-Z]*[ef]$/.test(a) || a === '--expression' || a === '--file') {
      scriptGiven = true;
      i++;
    } else if (/^-[a-zA-Z]*[ef]./.test(a) && tool === 'perl') scriptGiven = true; // perl -pe'…'
    else if (a.startsWith('--expression=') || a.startsWith('--file=')) scriptGiven = true;
    else if (a.startsWith('-') && a.length > 1) continue;
    else if (!scriptGiven) scriptGiven = true; // the first operand is the script
    else files.push(a);
  }
  return files;
}

function commandEffects(argv: string[], heredoc: string | null): FileEffect[] {
  let words = argv;
  // Wrappers that run the rest as the command.
  while (words.length && /^(?:sudo|command|exec|nice|time|env)$/.test(words[0]!)) words = words.slice(1).filter((w, i) => i > 0 || !/^-|=/.test(w));
  while (words.length && /^[A-Za-z_]\w*=/.test(words[0]!)) words = words.slice(1); // VAR=value prefixes
  const [cmd0, ...rest] = words;
  if (!cmd0) return [];
  const cmd = path.posix.basename(cmd0);
  const each = (paths: string[], action: FileEffect['action']) => paths.flatMap((p) => (literalPath(p) ? [{ path: p, action }] : []));
  switch (cmd) {
    case 'sed':
    case 'gsed':
      return each(inPlaceFiles(rest, 'sed') ?? [], 'edited');
    case 'perl':
      return each(inPlaceFiles(rest, 'perl') ?? [], 'edited');
    case 'tee':
      return each(operands(rest), 'written');
    case 'touch':
      return each(operands(rest, new Set(['-d', '-r', '-t'])), 'created');
    case 'rm':
    case 'unlink':
      return each(operands(rest), 'deleted');
    case 'mv':
    case 'cp': {
      const ops = operands(rest, new Set(['-t', '-S']));
      if (ops.length < 2) return [];
      const dest = ops[ops.length - 1]!;
      // Into a directory (several sources, or a trailing slash): the new paths are not spelled out.
      const intoDir = ops.length > 2 || dest.endsWith('/');
      const sources = cmd === 'mv' ? each(ops.slice(0, -1), 'moved') : [];
      return intoDir ? sources : [...sources, ...each([dest], 'created')];
    }
    case 'git': {
      // `git -C dir mv …`: global options come before the subcommand.
      let i = 0;
      while (i < rest.length && rest[i]!.startsWith('-')) i += rest[i] === '-C' || rest[i] === '-c' ? 2 : 1;
      const sub = rest[i];
      const subArgs = rest.slice(i + 1);
      if (sub === 'mv') return commandEffects(['mv', ...subArgs], heredoc);
      if (sub === 'rm') return subArgs.includes('--cached') ? [] : each(operands(subArgs), 'deleted');
      if (sub === 'apply' && !subArgs.some((a) => a === '--check' || a === '--stat' || a === '--numstat')) return heredoc ? diffFiles(heredoc) : [];
      return [];
    }
    case 'patch': {
      if (heredoc) return diffFiles(heredoc);
      const ops = operands(rest, new Set(['-p', '-i', '-d', '-o', '-r', '-B', '-D', '-F', '-V', '-Y', '-z']));
      return ops.length ? each([ops[0]!], 'patched') : [];
    }
    default:
      return [];
  }
}

/**
 * Files the command changed, as written in it: relative paths are relative to the directory the
 * command ran in (after any `cd` in it, which `cwdAfterCd` prefixes).
 */
export function shellFileEffects(command: string): FileEffect[] {
  if (!/[>]|\b(?:sed|perl|tee|touch|rm|unlink|mv|cp|git|patch)\b/.test(command)) return [];
  const { words, heredocs } = lex(command);
  const out: FileEffect[] = [];
  let heredocIndex = 0;
  let dir = '';
  let argv: string[] = [];
  let heredoc: string | null = null;
  const resolve = (p: string) => (dir && !p.startsWith('/') ? path.posix.join(dir, p) : p);
  const end = () => {
    if (argv[0] === 'cd') {
      const to = argv[1];
      // A `cd` to somewhere unknown ($VAR, ~, -) leaves later relative paths unplaceable: stop reading them.
      dir = to && literalPath(to) ? (to.startsWith('/') ? to : path.posix.join(dir, to)) : '\u0000';
    } else if (!dir.startsWith('\u0000')) for (const e of commandEffects(argv, heredoc)) out.push({ ...e, path: resolve(e.path) });
    argv = [];
    heredoc = null;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.op) {
      argv.push(w.text);
      continue;
    }
    if (SEPARATORS.has(w.text)) {
      end();
      continue;
    }
    const target = words[i + 1];
    if (w.text === '<<') {
      heredoc = heredocs[heredocIndex++] ?? null;
      i++;
    } else if (w.text === '>' || w.text === '>>' || w.text === '>|' || w.text === '&>' || w.text === '&>>' || w.text === 'fd>' || w.text === 'fd>>') {
      if (target && !target.op) {
        const p = literalPath(target.text);
        if (p && !dir.startsWith('\u0000')) out.push({ path: resolve(p), action: 'written' });
        i++;
      }
    } else if (target && !target.op && (w.text === '<' || w.text === '<<<' || w.text === '>&' || w.text === 'fd>&')) i++;
  }
  end();
  return out;
}
