/**
 * The server's layers hold (issue 30 part 9, docs/ARCHITECTURE.md "Layers"): the folder-level import graph of
 * apps/server/src, computed from the source files' import statements, has no cycle, and the device engine
 * imports nothing above config, db and lib. No database: it reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = path.resolve(import.meta.dirname, '../src');

/** The folder a file belongs to: `modules/<name>`, a top folder (`engine`, `lib`, `db`…), or `(root)` for src/*.ts. */
export function folderOf(relativePath: string): string {
  const parts = relativePath.split('/');
  if (parts.length === 1) return '(root)';
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0]!;
}

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

/** Folder → folder → the import lines that make the edge (`file -> specifier`). */
export type FolderGraph = Map<string, Map<string, string[]>>;

export function folderGraph(files: { path: string; source: string }[]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of files) {
    const from = folderOf(file.path);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of importSpecifiers(file.source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      if (target.startsWith('..')) continue; // outside src (packages are imported by name)
      const to = folderOf(target);
      if (to === from) continue;
      const edges = graph.get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), `${file.path} -> ${specifier}`]);
    }
  }
  return graph;
}

/**
 * Every cycle's folders (the strongly connected components of more than one folder, Tarjan), each written as
 * a path that closes on itself with one import line per step, e.g. `lib -> (root) -> lib`.
 */
export function folderCycles(graph: FolderGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      for (;;) {
        const member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => describeCycle(graph, new Set(component)));
}

/** One cycle through the component's first folder, found breadth-first, with the import behind each step. */
function describeCycle(graph: FolderGraph, component: Set<string>): string {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const steps = [node];
        while (steps[0] !== start) steps.unshift(previous.get(steps[0]!)!);
        steps.push(start);
        const lines = steps
          .slice(0, -1)
          .map(
            (from, position) =>
              `  ${from} -> ${steps[position + 1]}: ${graph.get(from)!.get(steps[position + 1]!)![0]}`,
          );
        return [
          `${steps.join(' -> ')} (folders in the cycle: ${[...component].sort().join(', ')})`,
          ...lines,
        ].join('\n');
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...component].join(' -> ');
}

function sourceFiles(directory: string): { path: string; source: string }[] {
  const files: { path: string; source: string }[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push({
      path: path.relative(directory, full).split(path.sep).join('/'),
      source: readFileSync(full, 'utf8'),
    });
  }
  return files;
}

describe('the server’s layers', () => {
  const graph = folderGraph(sourceFiles(SOURCE_ROOT));

  it('has no import cycle between folders of apps/server/src', () => {
    expect(graph.size).toBeGreaterThan(20);
    expect(graph.get('modules/barriers')?.has('modules/phones')).toBe(true);
    const cycles = folderCycles(graph);
    expect(cycles, `import cycles between folders:\n${cycles.join('\n\n')}`).toEqual([]);
  });

  it('keeps the device engine beneath every domain module: it imports config, db and lib only', () => {
    const imported = [...(graph.get('engine')?.entries() ?? [])];
    expect(imported.length).toBeGreaterThan(0);
    const upward = imported.filter(([folder]) => !['config', 'db', 'lib'].includes(folder));
    expect(upward.flatMap(([, lines]) => lines)).toEqual([]);
  });

  it('finds a cycle and names the import behind each step (so the checks above can fail)', () => {
    const cyclic = folderGraph([
      { path: 'lib/logger.ts', source: "import { LOG_REDACT_PATHS } from '../app.ts';" },
      { path: 'app.ts', source: "import pino from 'pino';\nimport { createLogger } from './lib/logger.ts';" },
      { path: 'engine/settle.ts', source: "import type { X } from '../modules/relay/commands.ts';" },
      { path: 'modules/relay/service.ts', source: "export { y } from '../../engine/settle.ts';" },
      { path: 'db/schema.ts', source: "const lazy = () => import('../lib/clock.ts');" },
    ]);
    expect(folderCycles(cyclic)).toEqual([
      expect.stringContaining('(root) -> lib -> (root)'),
      expect.stringContaining('engine -> modules/relay -> engine'),
    ]);
    expect(folderCycles(cyclic).join('\n')).toContain('lib/logger.ts -> ../app.ts');
    expect(cyclic.get('db')?.has('lib')).toBe(true);
  });
});
