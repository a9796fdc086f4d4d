import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // Marks the page's tags and adds <meta property="csp-nonce">; the server writes a fresh nonce over this
  // placeholder on every page load (apps/server/src/plugins/security-headers.ts), and Mantine reads it.
  html: { cspNonce: 'PROPUSK_CSP_NONCE' },
  // The manifest lets scripts/measure-login-js.mjs add up what the login route loads.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
