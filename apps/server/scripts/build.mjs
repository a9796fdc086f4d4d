/**
 * `npm run build` (server part): the server, the CLI and the migration step compiled to JavaScript with esbuild
 * (already installed: vite and tsx use it), each one ES module in apps/server/dist/server/, plain `node` runs
 * them (docs/decisions/0027).
 *
 * Our own code and the workspace packages (@propusk/contracts, devices, sms: TypeScript sources) go into the
 * bundle; the npm dependencies stay outside it and are loaded from node_modules, so `npm ci --omit=dev` is the
 * whole install of a production machine. The output sits two folders below apps/server, as src/db and
 * src/config do, so the paths those modules compute from their own location (the migrations folder,
 * apps/web/dist) hold for the bundle too; the bundled streets file is copied beside it.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverDir = path.resolve(import.meta.dirname, '..');
const outdir = path.join(serverDir, 'dist/server');
const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@propusk/'));

const started = performance.now();
rmSync(path.join(serverDir, 'dist'), { recursive: true, force: true });
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
  // A dependency's subpath (`drizzle-orm/pg-core`, `@electric-sql/pglite/contrib/pg_trgm`) is external too.
  external: external.flatMap((name) => [name, `${name}/*`]),
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
