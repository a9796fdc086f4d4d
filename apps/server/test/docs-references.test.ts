/**
 * The docs say what is there (issue 44 part 3): every decision record is Context / Decision / Consequences /
 * Status in at most 150 lines, every journal file is linked from a record, and every decision number or file
 * path quoted in the docs, the READMEs or a code comment exists in the repository. No database: it reads files.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
  .toString()
  .split('\n')
  .filter((file) => file !== '' && !file.includes('node_modules/'));
const FILE_SET = new Set(FILES);
const RECORDS = FILES.filter((file) => /^docs\/decisions\/\d{4}-.+\.md$/.test(file));
const RECORD_NUMBERS = new Set(RECORDS.map((file) => path.basename(file).slice(0, 4)));
const JOURNALS = FILES.filter((file) => /^docs\/journal\/\d{4}-\d{2}-\d{2}-.+\.md$/.test(file));

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Files whose text is read: docs and READMEs whole, code by its comments only. */
const SCANNED = FILES.filter(
  (file) =>
    /\.(md|ts|tsx|mjs)$/.test(file) && !file.includes('/drizzle/meta/') && !file.startsWith('docs/journal/'),
);

/** Paths a process writes, not the repository: the builds, the data folder, the journeys' artifacts. */
const GENERATED = /^(?:apps\/(?:server|web)\/)?(?:dist|data|DATA_DIR)\/|^e2e\/\.artifacts\//;
const EXTENSIONS = 'ts|tsx|md|mjs|cjs|js|json|sql|yaml|yml|conf|service|css|html|sh|jsonl|txt';
const PATH_PATTERN = new RegExp(
  `(?<![\\w./@-])((?:\\.{1,2}/)*[\\w@-][\\w.@-]*(?:/[\\w.@\\[\\]-]+)+\\.(?:${EXTENSIONS}))(?![\\w/])`,
  'g',
);
const DECISION_PATTERNS = [
  /docs\/decisions\/(\d{4})/g,
  /\b(?:decision|record|ADR)s?\s+(\d{4})\b/gi,
  /\((00[0-4]\d)(?=[ ,;)])/g,
];

/** The lines of a file that are prose: all of a Markdown file, the comment lines of code. */
function proseLines(file: string): { line: string; number: number }[] {
  return read(file)
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => file.endsWith('.md') || /^\s*(?:\/\/|\/\*|\*)/.test(line));
}

/** Whether a path quoted in `file` names a file of the repository (relative to it, or as a path's tail). */
function pathExists(file: string, quoted: string): boolean {
  if (quoted.startsWith('./') || quoted.startsWith('../')) {
    return FILE_SET.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), quoted)));
  }
  return FILE_SET.has(quoted) || FILES.some((candidate) => candidate.endsWith(`/${quoted}`));
}

/** A path on a line that names another repository or a web page is that repository's, not ours. */
const citesElsewhere = (line: string) => /https?:\/\/|github\.com|\bat commit\b/.test(line);
/** A web address written without its scheme («esmanual.top/manual/…»): its first segment is a host name. */
const isHostName = (quoted: string) => /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\//i.test(quoted);

describe('the docs name what exists', () => {
  it('keeps every decision record short and in its four parts', () => {
    expect(RECORDS.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const record of RECORDS) {
      const text = read(record);
      const lines = text.trimEnd().split('\n');
      if (lines.length > 150) problems.push(`${record}: ${lines.length} lines (at most 150)`);
      const headings = lines.filter((line) => line.startsWith('## ')).map((line) => line.slice(3).trim());
      if (headings.join(' / ') !== 'Context / Decision / Consequences / Status') {
        problems.push(`${record}: its parts are «${headings.join(' / ')}»`);
      }
      if (/\(none recorded\)|\(see the decision below\)/.test(text))
        problems.push(`${record}: an empty part`);
    }
    expect(problems).toEqual([]);
  });

  it('links every journal file from a decision record', () => {
    const linked = RECORDS.map(read).join('\n');
    const unlinked = JOURNALS.filter((journal) => !linked.includes(`../journal/${path.basename(journal)}`));
    expect(unlinked).toEqual([]);
  });

  it('finds every quoted decision number and file path', () => {
    const missing: string[] = [];
    for (const file of SCANNED) {
      for (const { line, number } of proseLines(file)) {
        for (const pattern of DECISION_PATTERNS) {
          for (const match of line.matchAll(pattern)) {
            const decision = match[1]!;
            if (!RECORD_NUMBERS.has(decision)) missing.push(`${file}:${number} decision ${decision}`);
          }
        }
        if (citesElsewhere(line)) continue;
        for (const match of line.matchAll(PATH_PATTERN)) {
          const quoted = match[1]!;
          if (GENERATED.test(quoted.replace(/^\.\//, '')) || isHostName(quoted) || /\*|NNN/.test(quoted))
            continue;
          if (!pathExists(file, quoted)) missing.push(`${file}:${number} path ${quoted}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('tells a moved file from one that is there (the check can fail)', () => {
    expect(pathExists('docs/ARCHITECTURE.md', 'engine/plan/outbox.ts')).toBe(true);
    expect(pathExists('docs/ARCHITECTURE.md', 'modules/devices/outbox.ts')).toBe(false);
    expect(pathExists('docs/decisions/0005-scale.md', '../journal/missing.md')).toBe(false);
    expect(RECORD_NUMBERS.has('0001')).toBe(false);
  });
});
