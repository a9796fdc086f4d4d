import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// react-router's package exports point every bundler at its development build (warnings and checks kept in);
// its production build is the same API without them. Only for `vite build`: the dev server keeps the warnings.
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve:
    command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // Marks the page's tags and adds <meta property="csp-nonce">; the server writes a fresh nonce over this
  // placeholder on every page load (apps/server/src/plugins/security-headers.ts), and Mantine reads it.
  html: { cspNonce: 'PROPUSK_CSP_NONCE' },
  // The manifest lets scripts/measure-login-js.mjs add up what the login route loads.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
}));
