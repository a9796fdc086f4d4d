/**
 * The journey servers run the compiled server (`npm run build` writes apps/server/dist/server/), as production
 * does: through tsx each start and each CLI run spent half its CPU in the loader (docs/journal/2026-11-29-ci-cpu.md).
 * A bundle older than a source it is built from would test yesterday's server, so the journeys refuse it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const bundle = path.join(root, 'apps/server/dist/server');
/** What the bundle is built from: the server's sources and the workspace packages' (their tests aside). */
const sources = [
  path.join(root, 'apps/server/src'),
  ...readdirSync(path.join(root, 'packages')).map((name) => path.join(root, 'packages', name, 'src')),
];

function newestSource(): { file: string; ms: number } {
  let newest = { file: '', ms: 0 };
  for (const folder of sources) {
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || /\.test\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const ms = statSync(file).mtimeMs;
      if (ms > newest.ms) newest = { file, ms };
    }
  }
  return newest;
}

/** The commands that run the compiled server and CLI, as argument lists for `node` (paths from the repository's root). */
export function serverBundleArgs(): { main: string[]; cli: string[] } {
  const main = path.join(bundle, 'main.js');
  // E2E_REUSE_SERVER=1 (never in CI): the developer's own running server, whatever runs it, is the one tested.
  const reusing = process.env.E2E_REUSE_SERVER === '1' && !process.env.CI;
  const built = existsSync(main) ? statSync(main).mtimeMs : 0;
  if (!built && !reusing) throw new Error(`${main} is missing: run \`npm run build\` before the journeys.`);
  const newest = newestSource();
  if (newest.ms > built && !reusing) {
    throw new Error(
      `${path.relative(root, newest.file)} is newer than the server's bundle: run \`npm run build\` before the journeys.`,
    );
  }
  return {
    main: ['--enable-source-maps', path.relative(root, main)],
    // A `create-admin` run lives a second or two: V8's optimising compiler would rebuild the embedded
    // PostgreSQL's hot WebAssembly functions for a process about to exit (a run 4.0 → 2.1 CPU-s on its baseline
    // compiler alone, as the server tests' children run; apps/server/test/server-bundle.ts). The servers, which
    // run for the whole shard, keep V8's defaults.
    cli: ['--liftoff-only', '--enable-source-maps', path.relative(root, path.join(bundle, 'cli.js'))],
  };
}

/** The same as shell commands; throws when the bundle is missing or older than a source. */
export function serverBundle(): { main: string; cli: string } {
  const { main, cli } = serverBundleArgs();
  return { main: ['node', ...main].join(' '), cli: ['node', ...cli].join(' ') };
}
