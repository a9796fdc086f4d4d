/**
 * The server's layers hold (issue 30 part 9, docs/ARCHITECTURE.md "Layers"): the folder-level import graph of
 * apps/server/src, computed from the source files' import statements, has no cycle, and the device engine
 * imports nothing above config, db and lib, in five folders whose faces are all the rest imports of it, in one
 * direction among themselves (log → budget → plan → reply → send, through their faces), the demo devices outside it; the service files of the modules listed below hold no query (issue 44
 * item 2: routes → service → repository). No database: it reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = path.resolve(import.meta.dirname, '../src');
const SERVER_ROOT = path.resolve(import.meta.dirname, '..');

/** The engine's folders (docs/ARCHITECTURE.md, src/engine/), each with its face `index.ts`. */
const ENGINE_FOLDERS = ['plan', 'send', 'reply', 'budget', 'log'];
/** Files of the engine beside its folders: the hooks by which the domain modules hear of their commands. */
const ENGINE_ROOT_FILES = ['hooks.ts'];
/**
 * The engine's folders (and the files beside them) from the lowest (docs/ARCHITECTURE.md, src/engine/): each
 * imports only those before it, through their faces. The log and the budget read and write their own tables;
 * the plan checks its commands against the budget; hooks.ts names the plan's payloads; a reply settles what
 * was planned and tells the hooks; send fails through reply what nobody answered.
 */
const ENGINE_ORDER = ['log', 'budget', 'plan', 'hooks.ts', 'reply', 'send'];
/** The only folders of src that may import the demo devices (src/demo/): the device processing starts them. */
const DEMO_IMPORTERS = ['jobs'];

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

/**
 * Imports from outside the engine that pass its faces (`engine/<folder>/index.ts`, or the files beside the
 * folders), as `file -> specifier`. Paths relative to apps/server (src/…, test/…, scripts/…).
 */
export function enginePastFaces(files: { path: string; source: string }[]): string[] {
  const faces = new Set([
    ...ENGINE_FOLDERS.map((folder) => `src/engine/${folder}/index.ts`),
    ...ENGINE_ROOT_FILES.map((file) => `src/engine/${file}`),
  ]);
  const found: string[] = [];
  for (const file of files) {
    if (file.path.startsWith('src/engine/')) continue;
    for (const specifier of importSpecifiers(file.source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      if (target.startsWith('src/engine/') && !faces.has(target)) found.push(`${file.path} -> ${specifier}`);
    }
  }
  return found;
}

/** The engine's part of a path under src (`engine/<folder>/…` → folder, `engine/hooks.ts` → hooks.ts). */
function enginePartOf(relativePath: string): string | null {
  const parts = relativePath.split('/');
  return parts[0] === 'engine' && parts.length > 1 ? parts[1]! : null;
}

/**
 * Imports between the engine's parts against `ENGINE_ORDER`, as `file -> specifier`: one up the order or
 * sideways, or one that passes the face of a lower folder (`engine/<folder>/index.ts`). Paths relative to src.
 */
export function engineOrderBreaches(files: { path: string; source: string }[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = enginePartOf(file.path);
    if (from === null) continue;
    for (const specifier of importSpecifiers(file.source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      const to = enginePartOf(target);
      if (to === null || to === from) continue;
      const face = ENGINE_ROOT_FILES.includes(to) ? `engine/${to}` : `engine/${to}/index.ts`;
      const below = ENGINE_ORDER.indexOf(to) !== -1 && ENGINE_ORDER.indexOf(to) < ENGINE_ORDER.indexOf(from);
      if (!below || target !== face) found.push(`${file.path} -> ${specifier}`);
    }
  }
  return found;
}

/**
 * Fields of the dependencies that src still sets after they are built (issue 44 part 2: a dependency is given
 * when they are built, as the hooks and the device worker's wake-up are). The list shrinks; it grows never.
 */
const DEPENDENCIES_SET_AFTER_BUILD = ['databaseOutage', 'demoDevices', 'jobQueue'];

/** `deps.<field>` assignments in a file's source (`=`, `??=`, `||=`), one field name each. */
export function dependencyAssignments(source: string): string[] {
  return [...source.matchAll(/\bdeps\.(\w+)\s*(?:\?\?|\|\|)?=(?!=)/g)].map((match) => match[1]!);
}

function sourceFiles(directory: string, withTests = false): { path: string; source: string }[] {
  const files: { path: string; source: string }[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    if (entry.name.endsWith('.test.ts') && !withTests) continue;
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

  it('groups the engine into its folders, and the server, its scripts and its tests import their faces only', () => {
    const engine = path.join(SOURCE_ROOT, 'engine');
    const loose = readdirSync(engine, { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() ? !ENGINE_FOLDERS.includes(entry.name) : true))
      .map((entry) => entry.name)
      .filter((name) => !ENGINE_ROOT_FILES.includes(name));
    expect(loose, 'files or folders of src/engine outside its folders').toEqual([]);
    for (const folder of ENGINE_FOLDERS)
      expect(readdirSync(path.join(engine, folder)), `src/engine/${folder}`).toContain('index.ts');
    // This file is left out: it quotes imports past the faces as data.
    const files = ['src', 'test', 'scripts'].flatMap((root) =>
      sourceFiles(path.join(SERVER_ROOT, root), true).map((file) => ({
        ...file,
        path: `${root}/${file.path}`,
      })),
    );
    expect(files.some((file) => file.path === 'test/sms-budget.test.ts')).toBe(true);
    const others = files.filter((file) => file.path !== 'test/architecture.test.ts');
    expect(
      enginePastFaces(others),
      'imports past the engine’s faces (export the name from the face)',
    ).toEqual([]);
  });

  it('keeps the engine’s folders in one direction: each imports only those beneath it, through their faces', () => {
    const engine = path.join(SOURCE_ROOT, 'engine');
    const parts = readdirSync(engine).sort();
    expect([...ENGINE_ORDER].sort(), 'every folder and file of src/engine in ENGINE_ORDER').toEqual(parts);
    const files = sourceFiles(engine).map((file) => ({ ...file, path: `engine/${file.path}` }));
    expect(
      engineOrderBreaches(files),
      `imports against the engine's order (${ENGINE_ORDER.join(' → ')}), or past a face`,
    ).toEqual([]);
    // The rule sees the engine's own imports between folders (a plan that stopped checking the budget, or a
    // face-less engine, would leave it nothing to check).
    expect(files.some((file) => file.source.includes("from '../budget/index.ts'"))).toBe(true);
  });

  it('finds an import up the engine’s order, sideways, or past a lower face (so the check above can fail)', () => {
    expect(
      engineOrderBreaches([
        { path: 'engine/reply/settle.ts', source: "import { x } from '../send/index.ts';" },
        { path: 'engine/plan/outbox.ts', source: "import { y } from '../budget/weekly-budget.ts';" },
        { path: 'engine/budget/weekly-budget.ts', source: "import type { Z } from '../plan/index.ts';" },
        { path: 'engine/log/health.ts', source: "import { h } from '../hooks.ts';" },
        { path: 'engine/hooks.ts', source: "import type { R } from './plan/index.ts';" },
        {
          path: 'engine/send/send.ts',
          source: "import { a } from '../reply/index.ts';\nimport { b } from './order.ts';",
        },
        {
          path: 'engine/reply/replies.ts',
          source: "import { c } from '../hooks.ts';\nimport { d } from '../../lib/clock.ts';",
        },
      ]),
    ).toEqual([
      'engine/reply/settle.ts -> ../send/index.ts',
      'engine/plan/outbox.ts -> ../budget/weekly-budget.ts',
      'engine/budget/weekly-budget.ts -> ../plan/index.ts',
      'engine/log/health.ts -> ../hooks.ts',
    ]);
  });

  it('keeps the demo devices out of the engine: only the device processing imports src/demo', () => {
    const importers = [...graph.entries()]
      .filter(([, edges]) => edges.has('demo'))
      .map(([folder]) => folder)
      .sort();
    expect(importers).toEqual(DEMO_IMPORTERS);
  });

  it('sets no dependency after the dependencies are built, but the ones still listed', () => {
    const set = new Set(sourceFiles(SOURCE_ROOT).flatMap((file) => dependencyAssignments(file.source)));
    expect([...set].sort()).toEqual(DEPENDENCIES_SET_AFTER_BUILD);
    expect(
      dependencyAssignments(
        'deps.notifyDeviceCommands = (ids) => {};\ndeps.databaseOutage ??= outage;\nif (deps.jobQueue === x) {}',
      ),
    ).toEqual(['notifyDeviceCommands', 'databaseOutage']);
  });

  it('finds an import past the engine’s faces (so the check above can fail)', () => {
    expect(
      enginePastFaces([
        {
          path: 'src/modules/relay/commands.ts',
          source: "import { x } from '../../engine/reply/settle.ts';",
        },
        { path: 'src/modules/relay/holds.ts', source: "import { y } from '../../engine/reply/index.ts';" },
        { path: 'src/jobs/worker.ts', source: "import { onReadReply } from '../engine/hooks.ts';" },
        { path: 'test/harness.ts', source: "const m = await import('../src/engine/send/send.ts');" },
        { path: 'src/engine/send/send.ts', source: "import { z } from '../reply/settle.ts';" },
      ]),
    ).toEqual([
      'src/modules/relay/commands.ts -> ../../engine/reply/settle.ts',
      'test/harness.ts -> ../src/engine/send/send.ts',
    ]);
  });

  it('finds a cycle and names the import behind each step (so the checks above can fail)', () => {
    const cyclic = folderGraph([
      { path: 'lib/logger.ts', source: "import { LOG_REDACT_PATHS } from '../app.ts';" },
      { path: 'app.ts', source: "import pino from 'pino';\nimport { createLogger } from './lib/logger.ts';" },
      { path: 'engine/reply/settle.ts', source: "import type { X } from '../../modules/relay/commands.ts';" },
      { path: 'modules/relay/service.ts', source: "export { y } from '../../engine/reply/settle.ts';" },
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

/**
 * Query-builder calls in a file's source, one line each (`line: text`): drizzle imported, tables imported as
 * values, `sql` templates, `.select(`, `.execute(`, relational `.query.x.findFirst(`, and `.insert(t)` /
 * `.update(t)` / `.delete(t)` chained on to a builder step (so a Map's `.delete(key)` is not one).
 */
export function queryBuilderCalls(source: string): string[] {
  const patterns = [
    /from\s*['"]drizzle-orm/,
    /import\s+(?!type\b)\{[^}]*\}\s*from\s*['"][^'"]*db\/schema\.ts['"]/,
    /\bsql\s*`|\bsql\.(?:join|raw|empty|identifier|placeholder)\b/,
    /\.\s*(?:select|selectDistinct|selectDistinctOn|execute)\s*\(/,
    /\.\s*(?:insert|update|delete)\s*\(\s*[\w.]+\s*\)\s*\.\s*(?:values|set|where|returning|onConflict\w*)\s*\(/,
    /\.\s*query\s*\.\s*\w+\s*\.\s*find(?:First|Many)\s*\(/,
  ];
  const found: string[] = [];
  for (const pattern of patterns) {
    for (const match of source.matchAll(new RegExp(pattern.source, 'g'))) {
      const line = source.slice(0, match.index).split('\n').length;
      found.push(`${line}: ${match[0].replace(/\s+/g, ' ')}`);
    }
  }
  return found;
}

/**
 * Modules whose service files hold no query: they ask their repository (docs/ARCHITECTURE.md,
 * `src/modules/<domain>/`: routes → service → repository). A module's service files are its `service.ts` and
 * `*-service.ts`, and the files named here beside them. Every module with a service file is on it (a new one too).
 */
const MODULES_WITHOUT_QUERIES_IN_SERVICES: Record<string, string[]> = {
  'access-requests': [],
  actions: [],
  addresses: [],
  auth: [],
  'barrier-staff': [],
  'barrier-users': [],
  conformance: ['plan.ts', 'steps.ts', 'person-steps.ts'],
  barriers: [],
  'device-checks': [],
  'device-models': [],
  'device-settings': [],
  exports: [],
  'guest-passes': [],
  imports: [],
  notifications: [],
  phones: [],
  privacy: [],
  relay: ['openings.ts', 'holds.ts', 'relay-check.ts'],
  'sms-inbound': [],
  users: [],
};

/** Names of the exported `create…Service(` factories in a file's source. */
export function serviceFactories(source: string): string[] {
  return [...source.matchAll(/^export function (create\w*Service)\(/gm)].map((match) => match[1]!);
}

describe('one module shape', () => {
  const modules = path.join(SOURCE_ROOT, 'modules');
  const isServiceFile = (name: string) => name === 'service.ts' || name.endsWith('-service.ts');

  it('keeps queries out of the service files of every module on the list', () => {
    const found: string[] = [];
    for (const [module, extras] of Object.entries(MODULES_WITHOUT_QUERIES_IN_SERVICES)) {
      const names = readdirSync(path.join(modules, module)).filter(isServiceFile);
      const files = [...names, ...extras];
      expect(files.length, `modules/${module} has no service file`).toBeGreaterThan(0);
      for (const file of files) {
        const calls = queryBuilderCalls(readFileSync(path.join(modules, module, file), 'utf8'));
        found.push(...calls.map((call) => `modules/${module}/${file}:${call}`));
      }
    }
    expect(found, 'query-builder calls in service files (move them to the repository)').toEqual([]);
  });

  it('puts every module with a service file on the list', () => {
    const withServices = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .filter((entry) => readdirSync(path.join(modules, entry.name)).some(isServiceFile))
      .map((entry) => entry.name);
    expect(withServices.sort()).toEqual(Object.keys(MODULES_WITHOUT_QUERIES_IN_SERVICES).sort());
  });

  it('builds no service as a factory closure: service files export top-level functions, dependencies first', () => {
    const found: string[] = [];
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      for (const file of readdirSync(path.join(modules, entry.name)).filter(isServiceFile)) {
        const relative = `${entry.name}/${file}`;
        const source = readFileSync(path.join(modules, relative), 'utf8');
        found.push(...serviceFactories(source).map((name) => `modules/${relative}: ${name}`));
      }
    }
    expect(found, 'service factories (write each method as a top-level function taking deps first)').toEqual(
      [],
    );
  });

  it('keeps queries out of the route files: a route calls its service (routes → service → repository)', () => {
    // The readiness probe's `select 1` is the check itself, not a query for a service to hold.
    const routesThatQuery = ['health/routes.ts'];
    const isRouteFile = (name: string) => name === 'routes.ts' || name.endsWith('-routes.ts');
    const found: string[] = [];
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      for (const file of readdirSync(path.join(modules, entry.name)).filter(isRouteFile)) {
        const relative = `${entry.name}/${file}`;
        if (routesThatQuery.includes(relative)) continue;
        const calls = queryBuilderCalls(readFileSync(path.join(modules, relative), 'utf8'));
        found.push(...calls.map((call) => `modules/${relative}:${call}`));
      }
    }
    expect(found, 'query-builder calls in route files (ask a service)').toEqual([]);
    for (const relative of routesThatQuery) {
      expect(queryBuilderCalls(readFileSync(path.join(modules, relative), 'utf8')), relative).not.toEqual([]);
    }
  });

  it('finds a service factory however its parameters are laid out', () => {
    expect(
      serviceFactories(
        [
          'export function createBarrierService(\n  deps: Dependencies,\n) {',
          'export function createGuestPassService(deps: Dependencies) {',
          'export async function createBarrier(deps: Dependencies, body: Body) {',
          'function createLocalService(deps: Dependencies) {',
        ].join('\n'),
      ),
    ).toEqual(['createBarrierService', 'createGuestPassService']);
  });

  it('finds each kind of query-builder call, and not a Map or a hash that looks like one', () => {
    const source = [
      "import { and, eq } from 'drizzle-orm';",
      "import { barriers, type users } from '../../db/schema.ts';",
      "import type { WeeklySchedule } from '../../db/schema.ts';",
      'const [row] = await tx',
      '  .select({ id: barriers.id })',
      '  .from(barriers);',
      'await tx.execute(sql`select 1`);',
      'await tx.insert(actions).values(entry);',
      'await tx\n  .update(gateOpenings)\n  .set({ commandId });',
      'await db.delete(phones).where(eq(phones.id, id));',
      'await db.query.users.findFirst();',
      'cache.delete(oldest);',
      "createHash('sha256').update(file).digest('hex');",
    ].join('\n');
    expect(queryBuilderCalls(source)).toEqual([
      "1: from 'drizzle-orm",
      "2: import { barriers, type users } from '../../db/schema.ts'",
      '7: sql`',
      '5: .select(',
      '7: .execute(',
      '8: .insert(actions).values(',
      '10: .update(gateOpenings) .set(',
      '12: .delete(phones).where(',
      '13: .query.users.findFirst(',
    ]);
  });
});
