import { defineConfig } from 'vitest/config';

// One runner for the whole repo: unit tests beside the code in packages/, server integration tests,
// and web component tests under jsdom. Browser journeys are Playwright's (e2e/), not Vitest's.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
