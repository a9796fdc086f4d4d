/**
 * `npm run build` (server part): the server, the CLI and the migration step compiled to JavaScript with esbuild
 * (already installed: vite and tsx use it), each one ES module in apps/server/dist/server/, plain `node` runs
 * them (docs/decisions/0027).
 *
 * Our own code, the workspace packages (@propusk/contracts, devices, sms: TypeScript sources) and the npm
 * dependencies that are plain JavaScript go into the bundle: loading them one file at a time cost the start
 * ~2,800 module resolutions (drizzle-orm, zod, ajv, yaml, jose… each asking for its package.json), a quarter
 * of its CPU (decision 0027, session of 2026-11-26). Kept outside, loaded from node_modules, are the
 * dependencies that read their own files or load native code (NOT_BUNDLED), so `npm ci --omit=dev` stays
 * the whole install of a production machine. The output sits two folders below apps/server, as src/db and
 * src/config do, so the paths those modules compute from their own location (the migrations folder,
 * apps/web/dist) hold for the bundle too; the bundled streets file is copied beside it.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const serverDir = path.resolve(import.meta.dirname, '..');
/**
 * `--outdir <folder>`: elsewhere than dist/server, still two folders below apps/server (the server tests'
 * global set-up builds a bundle of its own there and runs its child processes from it: test/server-bundle.ts).
 */
const { values: argv } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = argv.outdir ? path.resolve(argv.outdir) : path.join(serverDir, 'dist/server');
if (path.dirname(path.dirname(outdir)) !== serverDir) {
  throw new Error(
    `${outdir} is not two folders below ${serverDir}: the paths the bundle computes would not hold`,
  );
}
const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
/**
 * PGlite (its WebAssembly and data files beside its module), argon2 (a native addon), the Fastify plugins that
 * serve or read files of their own package (static, swagger, swagger-ui), pino (its transports start worker
 * files by path) and pg (it requires the optional native `pg-native` by name).
 */
const NOT_BUNDLED = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@fastify/static',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'pg',
  'pg-native',
];
for (const name of NOT_BUNDLED.filter((name) => name !== 'pg-native')) {
  if (!manifest.dependencies[name]) throw new Error(`${name} is no longer a dependency: update NOT_BUNDLED`);
}

const started = performance.now();
// Its own folder only: the server tests' bundles (dist/test-*) may be in use beside it.
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(serverDir, 'src/main.ts'),
    cli: path.join(serverDir, 'src/cli.ts'),
    migrate: path.join(serverDir, 'src/migrate.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  // A dependency's subpath (`@electric-sql/pglite/contrib/pg_trgm`) is external too.
  external: NOT_BUNDLED.flatMap((name) => [name, `${name}/*`]),
  // CommonJS dependencies inside an ES module call `require` for Node's own modules: give them one.
  banner: {
    js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
  // Keep class and function names in stack traces and in `instanceof`-free checks that read `.name`.
  keepNames: true,
});
mkdirSync(path.join(outdir, 'data'), { recursive: true });
copyFileSync(
  path.join(serverDir, 'src/modules/addresses/data/streets.json'),
  path.join(outdir, 'data/streets.json'),
);
process.stdout.write(
  `server compiled into ${path.relative(process.cwd(), outdir)} in ${Math.round(performance.now() - started)} ms\n`,
);
