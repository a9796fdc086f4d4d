import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // The manifest lets scripts/measure-login-js.mjs add up what the login route loads.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
