/**
 * How much JavaScript the login route loads, gzipped: the entry chunk, the login route's chunk, and every
 * chunk they import statically (what the browser fetches before /login is usable). Budget: 140 KB (issue 32 item 8
 * asks 100 KB; docs/decisions/0028 section 8 says what the rest is and what reaching 100 would take).
 * Run after `vite build`: `node apps/web/scripts/measure-login-js.mjs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const BUDGET_BYTES = 140 * 1024;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const loginKey = Object.keys(manifest).find((key) => key.endsWith('routes/auth/login.tsx'));
if (!entryKey || !loginKey) throw new Error('entry or login chunk missing from the manifest');

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entryKey);
visit(loginKey);

let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  total gzipped JavaScript for /login (budget 140 KB)`,
);
if (total > BUDGET_BYTES) process.exit(1);
