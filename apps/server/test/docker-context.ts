/**
 * What `docker build` would send and copy, without a container daemon (issue 40 item 6): `.dockerignore` read
 * with Docker's own rules (moby's patternmatcher: a pattern is anchored at the context's root, `*` and `?` stop
 * at `/`, `**` spans any number of folders, a pattern that matches a folder excludes all below it, `!` lines
 * re-include, the last matching line wins), the context walked with them, and a Containerfile's stages and
 * COPY lines evaluated against it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface IgnorePattern {
  exclusion: boolean;
  text: string;
  regex: RegExp;
}

const REGEX_SPECIAL = new Set([...'.+()|{}$^']);

/** moby patternmatcher's compile: the pattern as a regular expression over a slash-separated relative path. */
function compile(pattern: string): RegExp {
  let source = '^';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === '*') {
      if (chars[i + 1] === '*') {
        i++;
        if (chars[i + 1] === '/') i++;
        source += i + 1 >= chars.length ? '.*' : '(.*/)?';
      } else source += '[^/]*';
    } else if (ch === '?') source += '[^/]';
    else if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined) source += '\\\\';
      else {
        source += `\\${next}`;
        i++;
      }
    } else if (REGEX_SPECIAL.has(ch)) source += `\\${ch}`;
    else source += ch;
  }
  return new RegExp(`${source}$`, 'u');
}

/** moby's dockerignore.ReadAll: comments and blank lines dropped, each pattern cleaned, a leading `/` removed. */
export function parseDockerignore(text: string): IgnorePattern[] {
  const patterns: IgnorePattern[] = [];
  for (const line of text.split('\n')) {
    let pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#')) continue;
    const exclusion = pattern.startsWith('!');
    if (exclusion) pattern = pattern.slice(1);
    if (pattern === '') throw new Error('.dockerignore: a lone "!"');
    pattern = path.posix.normalize(pattern).replace(/\/$/, '');
    if (pattern.length > 1 && pattern.startsWith('/')) pattern = pattern.slice(1);
    patterns.push({ exclusion, text: line.trim(), regex: compile(pattern) });
  }
  return patterns;
}

/** moby's MatchesOrParentMatches: is this relative path left out of the context? */
export function isIgnored(patterns: readonly IgnorePattern[], file: string): boolean {
  const parents = path.posix.dirname(file) === '.' ? [] : path.posix.dirname(file).split('/');
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.exclusion !== matched) continue;
    let match = pattern.regex.test(file);
    for (let i = 0; !match && i < parents.length; i++)
      match = pattern.regex.test(parents.slice(0, i + 1).join('/'));
    if (match) matched = !pattern.exclusion;
  }
  return matched;
}

/**
 * The files of `root` that the context would hold. A left-out folder is not entered unless a `!` line might
 * take something back inside it (as Docker's walker does).
 */
export function contextFiles(root: string, patterns: readonly IgnorePattern[]): string[] {
  const anyExclusion = patterns.some((pattern) => pattern.exclusion);
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const ignored = isIgnored(patterns, name);
      if (entry.isDirectory()) {
        if (!ignored || anyExclusion) walk(name);
      } else if (!ignored) files.push(name);
    }
  };
  walk('');
  return files.sort();
}

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string | null;
  instructions: Instruction[];
}

/** A Containerfile's stages and their instructions (continuation lines joined, comments dropped). */
export function parseContainerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (pending === '' && /^\s*(#|$)/.test(line)) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^\s*(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? null, instructions: [] });
      continue;
    }
    stages.at(-1)?.instructions.push({ keyword: upper, args: args.trim() });
  }
  return stages;
}

export interface Copy {
  from: string | null;
  sources: string[];
  destination: string;
}

/** A COPY line's `--from`, sources and destination (JSON or plain form; other flags ignored). */
export function parseCopy(args: string): Copy {
  const words = args.trim().startsWith('[')
    ? (JSON.parse(args) as string[])
    : args.split(/\s+/).filter((word) => word !== '');
  let from: string | null = null;
  const rest: string[] = [];
  for (const word of words) {
    if (word.startsWith('--from=')) from = word.slice('--from='.length);
    else if (!word.startsWith('--')) rest.push(word);
  }
  const destination = rest.pop() ?? '';
  return { from, sources: rest, destination };
}

/**
 * Where a COPY puts the files it takes from a stage (paths relative to `workdir`, as the stage's own are): a
 * folder's contents under the destination, a file at the destination (or in it, when it ends with `/` or
 * there are several sources). Wildcard sources are not modelled: they throw.
 */
export function evaluateCopy(files: readonly string[], copy: Copy, workdir: string): Map<string, string> {
  const placed = new Map<string, string>();
  const into = (relative: string) => path.posix.relative(workdir, path.posix.resolve(workdir, relative));
  for (const source of copy.sources) {
    if (/[*?[]/.test(source)) throw new Error(`COPY source with a wildcard is not modelled: ${source}`);
    const taken = into(source);
    if (taken.startsWith('..')) continue;
    for (const file of files) {
      if (taken === '' || file.startsWith(`${taken}/`)) {
        const below = taken === '' ? file : file.slice(taken.length + 1);
        placed.set(into(path.posix.join(copy.destination, below)), file);
      } else if (file === taken) {
        const toFolder = copy.destination.endsWith('/') || copy.sources.length > 1;
        placed.set(
          into(toFolder ? path.posix.join(copy.destination, path.posix.basename(file)) : copy.destination),
          file,
        );
      }
    }
  }
  return placed;
}

/** Reads a repository file (utf-8). */
export const readRepoFile = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
