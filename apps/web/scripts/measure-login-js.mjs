/**
 * How much JavaScript the sign-in screens load, gzipped (issue 32 item 8; docs/decisions/0028 section 8).
 *
 * /login: every script dist/index.html names (the entry and its modulepreload links) and every chunk they import
 * statically: what the browser fetches before the screen is usable; and the page's inline script (it fetches the
 * whole app's first chunks when the page is not a sign-in screen: src/app/shell/full-app-preload.ts), gzipped
 * on its own though the page is sent uncompressed. The login screen is in the entry: the light
 * entry (src/app/shell) renders it without the data router.
 * The code step: what /verifyuser adds on top (its lazy chunk and the chunks it imports statically), fetched when
 * the person leaves the number step.
 * Budget: 100 KB for /login, and 100 KB for /login and the code step together; the build fails above either.
 * Mantine's styles come in two files (src/app/styles): the page's stylesheet has only what the sign-in screens
 * draw. The build fails when a Mantine class used by /login or the code step is not in that stylesheet, or one
 * used by any chunk is in neither file (Mantine's classes are `m_<hash>`, the same in its JS and its CSS).
 * Run after `vite build`: `node apps/web/scripts/measure-login-js.mjs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const BUDGET_BYTES = 100 * 1024;

const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
const htmlScripts = [
  ...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
].map((match) => match[1]);
// The code step's chunk: vite.config.ts groups it as 'code-step' (else it is verify-user.tsx's own chunk).
const codeKey = Object.keys(manifest).find(
  (key) => manifest[key].name === 'code-step' || key.endsWith('routes/auth/verify-user.tsx'),
);
if (htmlScripts.length === 0 || !codeKey)
  throw new Error('index.html names no script, or no code step chunk');

/** The files a chunk brings with it: itself and, recursively, what it imports statically. */
function collect(files, file) {
  if (files.has(file)) return;
  files.add(file);
  for (const imported of manifest[keyOfFile.get(file)]?.imports ?? [])
    collect(files, manifest[imported].file);
}

const sizeOf = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]+?)<\/script>/g)].map(
  (match) => match[1],
);
function report(label, files, counted = new Set(), inline = []) {
  let total = 0;
  for (const [index, script] of inline.entries()) {
    const size = gzipSync(script, { level: 9 }).length;
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  index.html's inline script ${index + 1}`);
  }
  for (const file of files) {
    if (counted.has(file)) continue;
    const size = sizeOf(file);
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
  }
  console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  ${label}`);
  return total;
}

const login = new Set();
for (const file of htmlScripts) collect(login, file);
const loginTotal = report('gzipped JavaScript for /login (budget 100 KB)', login, new Set(), inlineScripts);
const withCode = new Set(login);
collect(withCode, manifest[codeKey].file);
const codeTotal = report('more for the code step', withCode, login);
const both = loginTotal + codeTotal;
console.log(`${(both / 1024).toFixed(1).padStart(7)} KB  /login and the code step together (budget 100 KB)`);

const mantineClasses = (file) =>
  new Set(readFileSync(path.join(dist, file), 'utf8').match(/\bm_[0-9a-f]{6,8}\b/g));
const union = (files) => new Set(files.flatMap((file) => [...mantineClasses(file)]));
const missing = (used, defined) => [...used].filter((name) => !defined.has(name));
const pageCss = manifest['index.html'].css ?? [];
const allFiles = Object.values(manifest).map((chunk) => chunk.file);
const missingOnSignIn = missing(union([...withCode]), union(pageCss));
const missingAnywhere = missing(
  union(allFiles.filter((file) => file.endsWith('.js'))),
  union(
    allFiles
      .flatMap((file) => [file, ...(manifest[keyOfFile.get(file)]?.css ?? [])])
      .filter((f) => f.endsWith('.css')),
  ),
);
const cssSize = pageCss.reduce((total, file) => total + sizeOf(file), 0);
console.log(
  `${(cssSize / 1024).toFixed(1).padStart(7)} KB  gzipped render-blocking CSS for /login (${pageCss.join(', ')})`,
);
for (const [where, names] of [
  ['the sign-in stylesheet (src/app/styles/sign-in.css)', missingOnSignIn],
  ['any stylesheet (src/app/styles/full-app.css)', missingAnywhere],
]) {
  if (names.length > 0) {
    console.error(`Mantine classes used but missing from ${where}: ${names.join(' ')}`);
    console.error(
      'Add the component file of @mantine/core/styles/ that defines them (grep -l NAME node_modules/@mantine/core/styles/*.css).',
    );
  }
}
if (
  loginTotal > BUDGET_BYTES ||
  both > BUDGET_BYTES ||
  missingOnSignIn.length > 0 ||
  missingAnywhere.length > 0
)
  process.exit(1);
