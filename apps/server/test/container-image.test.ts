/**
 * A clean image (issue 40 item 6, docs/decisions/0031), checked without a container daemon (none on this
 * project's machines): `.dockerignore` applied to this tree with Docker's rules gives the build context, and
 * deploy/Containerfile's stages are played over it — the build stage holds the context plus what its RUN steps
 * make (all of node_modules, the builds) — to list what the runtime stage would hold. Neither may hold the git
 * history, data (the embedded database, the server key, the demo SMS file with its codes), an `.env`, the build
 * stage's node_modules or a test; the runtime stage holds only the built server (with its migrations), the
 * built web app, the manifests and the production dependencies it installs itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contextFiles,
  evaluateCopy,
  isIgnored,
  parseContainerfile,
  parseCopy,
  parseDockerignore,
  readRepoFile,
} from './docker-context.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const patterns = parseDockerignore(readRepoFile(root, '.dockerignore'));

/** Why a path must stay out of the context and the image, or null. */
function forbidden(file: string): string | null {
  const parts = file.split('/');
  const name = parts.at(-1) ?? '';
  if (parts.includes('.git') || file === '.git') return 'git history';
  if (parts[0] === 'data' || parts.some((part) => part.startsWith('.data-'))) return 'data (DATA_DIR)';
  if (name === 'secret.key' || name === 'sms-outbox.jsonl' || name === 'propusk.lock')
    return 'data (DATA_DIR)';
  if (name.startsWith('.env')) return 'an .env file';
  if (parts.includes('node_modules')) return 'node_modules';
  if (/\.(test|spec)\.tsx?$/.test(name) || /^(e2e|apps\/server\/test|apps\/web\/src\/test)\//.test(file))
    return 'a test';
  return null;
}

/** What a careless tree or checkout holds beside the sources: none of it may reach the build. */
const PLANTED = [
  '.git/config',
  '.git/objects/pack/pack-1.pack',
  '.env',
  '.env.local',
  '.env.production',
  '.env.example',
  'apps/server/.env',
  'deploy/.env',
  'data/secret.key',
  'data/sms-outbox.jsonl',
  'data/pglite/PG_VERSION',
  'data/propusk.lock',
  '.data-bench/secret.key',
  'apps/server/data/secret.key',
  'node_modules/vitest/package.json',
  'apps/web/node_modules/.vite/deps/react.js',
  'packages/contracts/node_modules/zod/package.json',
  'apps/server/dist/server/main.js',
  'apps/web/dist/index.html',
  'e2e/full-journey.spec.ts',
  'e2e/.artifacts/admin-session.json',
  'apps/server/test/auth.test.ts',
  'apps/web/src/test/setup.ts',
  'apps/web/src/app/routes/admin/change-password.test.tsx',
  'packages/devices/src/rtu5025.test.ts',
  'playwright-report/index.html',
  'test-results/x/trace.zip',
];

/** What the build stage's steps need from the context. */
const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/scripts/build.mjs',
  'apps/server/src/main.ts',
  'apps/server/src/migrate.ts',
  'apps/server/src/cli.ts',
  'apps/server/src/modules/addresses/data/streets.json',
  'apps/server/drizzle/meta/_journal.json',
  'apps/web/package.json',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/scripts/compress-dist.mjs',
  'apps/web/src/main.tsx',
  'packages/contracts/package.json',
  'packages/devices/package.json',
  'packages/sms/package.json',
];

/** The only files the runtime stage may copy from the build stage. */
const RUNTIME_ALLOWED = [
  /^package(-lock)?\.json$/,
  /^(apps|packages)\/[a-z-]+\/package\.json$/,
  /^apps\/server\/dist\//,
  /^apps\/server\/drizzle\//,
  /^apps\/web\/dist\//,
];

/**
 * What the build stage's RUN steps add to /app (a few files standing for each): the full install, the builds.
 * An unknown step fails the test, so that a new one is modelled here.
 */
function filesMadeBy(command: string): string[] {
  if (/^npm ci --omit=dev\b/.test(command)) return ['node_modules/fastify/package.json'];
  if (/^npm ci\b/.test(command))
    return [
      'node_modules/.package-lock.json',
      'node_modules/vitest/package.json',
      'node_modules/@propusk/contracts',
      'apps/web/node_modules/.vite/deps/react.js',
    ];
  if (command === 'npm run build')
    return [
      'apps/server/dist/server/main.js',
      'apps/server/dist/server/main.js.map',
      'apps/server/dist/server/migrate.js',
      'apps/server/dist/server/cli.js',
      'apps/server/dist/server/data/streets.json',
      'apps/web/dist/index.html',
      'apps/web/dist/assets/index.js',
      'apps/web/dist/assets/index.js.br',
    ];
  throw new Error(`a RUN step this test does not model: ${command}`);
}

/** Plays a Containerfile over a context: each stage's files, relative to /app, with where each came from. */
function playStages(containerfile: string, context: readonly string[]) {
  const stages = parseContainerfile(containerfile);
  const byName = new Map<string, string[]>();
  const played = stages.map((stage) => {
    const files = new Map<string, string>();
    for (const { keyword, args } of stage.instructions) {
      if (keyword === 'WORKDIR') expect(args, 'every stage works in /app').toBe('/app');
      if (keyword === 'COPY') {
        const copy = parseCopy(args);
        const from = copy.from === null ? [...context] : byName.get(copy.from);
        if (!from) throw new Error(`COPY --from=${copy.from}: no such stage`);
        const base = copy.from === null ? '.' : '/app';
        const sources = { ...copy, sources: copy.sources.map((s) => path.posix.relative(base, s) || '.') };
        for (const [target, source] of evaluateCopy(from, sources, '/app'))
          files.set(target, copy.from === null ? `context:${source}` : `${copy.from}:${source}`);
      }
      if (keyword === 'RUN')
        for (const command of args.split(/\s*&&\s*/).slice(0, 1))
          for (const file of filesMadeBy(command)) files.set(file, 'run');
    }
    if (stage.name) byName.set(stage.name, [...files.keys()]);
    return { name: stage.name, files };
  });
  return played;
}

describe('the build context (.dockerignore, Docker rules)', () => {
  it('reads patterns as Docker does (the examples of its documentation)', () => {
    const rules = parseDockerignore(
      '# comment\n*/temp*\n*/*/temp*\ntemp?\n**/*.go\n*.md\n!README*.md\nREADME-secret.md\n/build/\ndata\n',
    );
    const ignored = (file: string) => isIgnored(rules, file);
    expect(ignored('somedir/temporary.txt')).toBe(true);
    expect(ignored('somedir/temp')).toBe(true);
    expect(ignored('temp')).toBe(false);
    expect(ignored('somedir/subdir/temporary.txt')).toBe(true);
    expect(ignored('a/b/c/temp.txt')).toBe(false);
    expect(ignored('tempa')).toBe(true);
    expect(ignored('tempab')).toBe(false);
    expect(ignored('main.go')).toBe(true);
    expect(ignored('x/y/main.go')).toBe(true);
    expect(ignored('CHANGES.md')).toBe(true);
    expect(ignored('README.md')).toBe(false);
    expect(ignored('README-x.md')).toBe(false);
    expect(ignored('README-secret.md')).toBe(true);
    expect(ignored('build/out/app.js')).toBe(true);
    // A plain name is anchored at the root (unlike .gitignore) and takes everything below it.
    expect(ignored('data/pglite/base/1')).toBe(true);
    expect(ignored('apps/server/src/modules/addresses/data/streets.json')).toBe(false);
  });

  const context = contextFiles(root, patterns);

  it('leaves out history, data, .env files, node_modules, builds and tests, wherever they are', () => {
    const planted = PLANTED.filter((file) => !isIgnored(patterns, file));
    expect(planted, 'in the build context').toEqual([]);
    const found = context.map((file) => ({ file, why: forbidden(file) })).filter(({ why }) => why !== null);
    expect(found, 'files of this tree in the build context').toEqual([]);
  });

  it('holds what the build needs', () => {
    expect(BUILD_INPUTS.filter((file) => !context.includes(file))).toEqual([]);
    // The web app's and the server's sources, not only their entry points.
    expect(context.filter((file) => file.startsWith('apps/web/src/')).length).toBeGreaterThan(100);
    expect(context.filter((file) => file.startsWith('packages/contracts/src/')).length).toBeGreaterThan(20);
  });
});

describe('the runtime stage of deploy/Containerfile', () => {
  const containerfile = readRepoFile(root, 'deploy/Containerfile');
  const context = contextFiles(root, patterns);
  const stages = playStages(containerfile, context);
  const runtime = stages.at(-1);

  it('copies from the build stage only the built server and web app, the migrations and the manifests', () => {
    expect(stages).toHaveLength(2);
    expect(runtime?.name).toBeNull();
    const copied = [...(runtime?.files ?? [])].filter(([, source]) => source !== 'run');
    const outside = copied.filter(([target]) => !RUNTIME_ALLOWED.some((pattern) => pattern.test(target)));
    expect(outside, 'copied into the image beyond the allowed').toEqual([]);
    const bad = copied
      .map(([target, source]) => ({ target, source, why: forbidden(source.replace(/^[^:]+:/, '')) }))
      .filter(({ why }) => why !== null);
    expect(bad, 'copied into the image').toEqual([]);
    const targets = copied.map(([target]) => target);
    for (const needed of [
      'package.json',
      'package-lock.json',
      'apps/server/package.json',
      'packages/contracts/package.json',
      'apps/server/dist/server/main.js',
      'apps/server/dist/server/migrate.js',
      'apps/server/dist/server/data/streets.json',
      'apps/server/drizzle/meta/_journal.json',
      'apps/web/dist/index.html',
    ])
      expect(targets, needed).toContain(needed);
    expect(targets.some((target) => target.startsWith('apps/server/src/'))).toBe(false);
  });

  it('installs its production dependencies itself, and runs the compiled server', () => {
    const own = [...(runtime?.files ?? [])].filter(([, source]) => source === 'run').map(([file]) => file);
    expect(own).toEqual(['node_modules/fastify/package.json']);
    expect(containerfile).toMatch(/^RUN npm ci --omit=dev -w @propusk\/server /m);
    expect(containerfile).toMatch(/^CMD \[.*"apps\/server\/dist\/server\/main\.js"\]$/m);
  });

  it('fails the image of before: the whole build stage copied, without a .dockerignore', () => {
    const careless = playStages(
      'FROM node AS build\nWORKDIR /app\nCOPY . .\nRUN npm ci\nRUN npm run build\nFROM node\nWORKDIR /app\nCOPY --from=build /app /app\n',
      [...context, ...PLANTED],
    );
    const copied = [...(careless.at(-1)?.files ?? [])].map(([, source]) => source.replace(/^[^:]+:/, ''));
    const reasons = new Set(copied.map(forbidden).filter((why) => why !== null));
    expect([...reasons].sort()).toEqual([
      'a test',
      'an .env file',
      'data (DATA_DIR)',
      'git history',
      'node_modules',
    ]);
  });
});
