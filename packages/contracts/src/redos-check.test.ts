/**
 * Issue 40 item 1: no pattern that reads input backtracks. Every regular expression literal in packages/contracts
 * and in the server's code (apps/server/src: routes, services, the import's readers, the libraries they use) is
 * given to the ReDoS analyser `recheck`, and the test fails on one it finds vulnerable (exponential or polynomial
 * backtracking), naming the file, the line and the attack string's shape. A pattern built at run time
 * (`new RegExp`) cannot be read here: each one must be in BUILT below, with the patterns it can build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exact } from './texts/errors/rules.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCANNED = ['packages/contracts/src', 'apps/server/src'];

/** The files that build a pattern at run time, and samples of what they build (checked like the literals). */
const BUILT: Record<string, { why: string; samples: () => RegExp[] }> = {
  'packages/contracts/src/texts/errors/rules.ts': {
    why: 'exact(): an English message escaped whole, anchored: no quantifier is left',
    samples: () => [exact('Ensure this field has at most 500 characters.', '')[0], exact('a+b*(c)?', '')[0]],
  },
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

interface Found {
  where: string;
  source: string;
  flags: string;
}

/** The regular expression literals of a file (by the TypeScript parser: no guessing at `/`), and its `new RegExp`. */
function patternsOf(file: string): { literals: Found[]; builds: number } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const literals: Found[] = [];
  let builds = 0;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(tree);
      const end = literal.lastIndexOf('/');
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      literals.push({
        where: `${file}:${line}`,
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      });
    }
    if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      builds += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return { literals, builds };
}

describe('no pattern on the input paths backtracks (issue 40 item 1)', () => {
  const files = SCANNED.flatMap(sourceFiles);
  const scanned = files.map((file) => ({ file, ...patternsOf(file) }));

  it('finds the patterns (the scan itself works)', () => {
    const literals = scanned.flatMap((each) => each.literals);
    expect(literals.length).toBeGreaterThan(100);
    expect(literals.some((found) => found.where.startsWith('packages/contracts/src/text-check.ts'))).toBe(
      true,
    );
    expect(literals.some((found) => found.where.startsWith('apps/server/src/modules/imports/rows.ts'))).toBe(
      true,
    );
  });

  it('builds patterns at run time only where BUILT lists them', () => {
    const building = scanned.filter((each) => each.builds > 0).map((each) => each.file);
    expect(building.sort()).toEqual(Object.keys(BUILT).sort());
  });

  it('has no pattern recheck finds vulnerable', { timeout: 120_000 }, async () => {
    const found: Found[] = [
      ...scanned.flatMap((each) => each.literals),
      ...Object.entries(BUILT).flatMap(([file, built]) =>
        built
          .samples()
          .map((pattern) => ({ where: `${file} (built)`, source: pattern.source, flags: pattern.flags })),
      ),
    ];
    // One check per distinct pattern.
    const distinct = new Map<string, Found[]>();
    for (const each of found) {
      const key = `/${each.source}/${each.flags}`;
      distinct.set(key, [...(distinct.get(key) ?? []), each]);
    }
    const vulnerable: string[] = [];
    for (const [key, places] of distinct) {
      const first = places[0] as Found;
      const result = await check(first.source, first.flags, { timeout: 10_000 });
      if (result.status === 'vulnerable') {
        const attack = result.attack ? ` attack ${JSON.stringify(result.attack.pattern)}` : '';
        vulnerable.push(
          `${key} (${result.complexity.type}${attack}) at ${places.map((place) => place.where).join(', ')}`,
        );
      }
    }
    expect(vulnerable).toEqual([]);
  });
});
