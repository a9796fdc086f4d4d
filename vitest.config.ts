import { defineConfig } from 'vitest/config';

// One runner for the whole repo: unit tests beside the code in packages/, server integration tests,
// and web component tests under jsdom. Browser journeys are Playwright's (e2e/), not Vitest's.
//
// Two files at a time (Vitest's default is one worker less than the cores: one on these 2-core machines).
// The signal tests run among the others: their stop during start-up has 30 s (it once had 10 s and ran alone in
// a last group, which left one core idle for a minute at the end of every run).
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
          // A guard against a hang, not a speed check (Vitest's default is 5 s): beside CI's journeys a simulated
          // week of 1.9 s quiet took 6 s, and the property runs of 16 s took 70 s (their own limits, 180 s).
          testTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/setup-warnings.ts'],
          environment: 'node',
          // One module graph per worker, not per file: every file builds its own app on its own database copy
          // (test-app.ts) and none mocks a module or fakes timers, so nothing a file imports carries state to the
          // next. Importing the server afresh for each of ~115 files was a third of the PostgreSQL pass (CI of
          // 2026-11-28: import 331 s of 1,162 s; 43 s with one graph per worker).
          isolate: false,
          // Limits against a hang, not speed checks: beside CI's journeys these files run 3 to 6 times as long as
          // on a quiet host (this session's runs: a sweep of 2 s quiet took 30 s there).
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
