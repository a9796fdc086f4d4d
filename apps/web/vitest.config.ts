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
    // A guard against a hung test, not a speed check: in CI these run beside the browser journeys and the
    // PostgreSQL pass on two cores, where a screen test with many typed steps took 20.5 s (a 20 s limit failed).
    testTimeout: 60_000,
  },
});
