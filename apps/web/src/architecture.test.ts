/**
 * The web app's layers point down (issue 44 part 4, docs/ARCHITECTURE.md, as apps/server/test/architecture.test.ts
 * does for the server): app/ (router, screens) → features/ → components/ and hooks/ → lib/. No source file beneath
 * app/ imports from it (the route table is lib/paths.ts), and no source file imports the tests' support folder
 * (sample answers live in test/, not in the production tree). Tests may import upward: a component's test renders
 * the screens that use it. No DOM: it reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = import.meta.dirname;
const BENEATH_APP = ['components', 'features', 'hooks', 'lib'];

/** Relative specifiers of a file's static imports, re-exports and dynamic imports (type-only ones too). */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier?.startsWith('.')) found.push(specifier);
  }
  return found;
}

const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);

/** Source files below src/ (paths relative to it, `/`-separated), tests and the tests' support folder left out. */
function sourceFiles(): { path: string; source: string }[] {
  const files: { path: string; source: string }[] = [];
  for (const entry of readdirSync(SOURCE_ROOT, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || isTestFile(entry.name)) continue;
    const relative = path
      .relative(SOURCE_ROOT, path.join(entry.parentPath, entry.name))
      .split(path.sep)
      .join('/');
    if (relative.startsWith('test/')) continue;
    files.push({ path: relative, source: readFileSync(path.join(entry.parentPath, entry.name), 'utf8') });
  }
  return files;
}

/** `file -> specifier` for every import of a file in one of `from` that lands in the folder `into`. */
export function importsInto(
  files: { path: string; source: string }[],
  from: string[],
  into: string,
): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (!from.some((folder) => file.path.startsWith(`${folder}/`))) continue;
    for (const specifier of importSpecifiers(file.source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      if (target.startsWith(`${into}/`) || target === into) found.push(`${file.path} -> ${specifier}`);
    }
  }
  return found;
}

describe('the web app’s layers', () => {
  const files = sourceFiles();

  it('imports nothing from app/ in components, features, hooks or lib', () => {
    expect(files.filter((file) => file.path.startsWith('features/')).length).toBeGreaterThan(20);
    expect(importsInto(files, BENEATH_APP, 'app'), 'imports up into app/').toEqual([]);
  });

  it('keeps the tests’ sample answers and helpers out of every source file', () => {
    const topFolders = [...new Set(files.map((file) => file.path.split('/')[0]!))];
    expect(importsInto(files, topFolders, 'test'), 'source files importing src/test/').toEqual([]);
  });

  it('finds an import up into app/ in any of its forms (so the checks above can fail)', () => {
    const found = importsInto(
      [
        { path: 'components/no-access.tsx', source: "import { paths } from '../app/paths';" },
        { path: 'features/a/components/b.tsx', source: "import type { X } from '../../../app/router';" },
        { path: 'hooks/use-x.ts', source: "const lazy = () => import('../app/full-app');" },
        { path: 'lib/x.ts', source: "export { y } from '../app/routes/admin/navigation';" },
        { path: 'lib/paths-user.ts', source: "import { paths } from './paths';\nimport '../lib/app';" },
        { path: 'app/router.tsx', source: "import { paths } from '../lib/paths';" },
      ],
      BENEATH_APP,
      'app',
    );
    expect(found).toEqual([
      'components/no-access.tsx -> ../app/paths',
      'features/a/components/b.tsx -> ../../../app/router',
      'hooks/use-x.ts -> ../app/full-app',
      'lib/x.ts -> ../app/routes/admin/navigation',
    ]);
  });
});
