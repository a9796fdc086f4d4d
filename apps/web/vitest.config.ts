import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // One module graph and one jsdom per worker, not per file: the setup file clears the DOM, the storages, the
    // early reads, stubbed globals and fake timers after every test, and no file mocks a module. A fresh jsdom
    // and import per file were most of the time (75 files: 586 s on one worker beside the journeys, CI of
    // 2026-11-28; 47 s on two workers with one graph each on a quiet machine).
    isolate: false,
    // A guard against a hung test, not a speed check: in CI these run beside the browser journeys and the
    // PostgreSQL pass on two cores, where a screen test with many typed steps took 20.5 s (a 20 s limit failed).
    testTimeout: 60_000,
  },
});
