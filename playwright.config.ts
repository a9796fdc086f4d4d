/**
 * Browser journeys: Debian's Chromium at a phone viewport against the real server on a fresh embedded
 * database. The web server command creates the administrators with the CLI first (the CLI refuses while the
 * server holds DATA_DIR), then starts the server, which serves the built web app. Both run compiled
 * (`npm run build`, which `npm run test:e2e` runs: the web app and the server's bundle), as in production.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E, E2E_ADMINS, journeyServerEnv, PHONE_CONTEXT } from './e2e/support/environment';
import { serverBundle } from './e2e/support/server-bundle';

const { cli, main } = serverBundle();
const createAdmins = E2E_ADMINS.map(
  (admin) => `${cli} create-admin --phone ${admin.phone} --password ${admin.password} --name "${admin.name}"`,
).join(' && ');

/** Debian's Chromium (apt-get install -y chromium), or the one CHROMIUM_PATH names; never a downloaded browser. */
function chromiumPath(): string {
  const file = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(file)) {
    throw new Error(`Chromium not found at ${file}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  }
  return file;
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: path.join(E2E.own, 'test-results'),
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A guard against a hung journey, not a speed check. In CI the two shards share the two cores (with the type
  // checks at first; docs/decisions/0044). When every CI step ran at once, tests of 17 s quiet took 39–90 s and
  // failed on their limit (stop 50); 90 s holds 3.5 times a 25 s test; longer journeys set their own.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...PHONE_CONTEXT,
    // A failed test keeps its trace (the page's DOM at every step, network, console) without the film of
    // screenshots, which cost a fifth of the browser's and the runner's CPU in every test, passed or not
    // (docs/journal/2026-11-29-ci-cpu.md); the failure's own screenshot stays.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'chromium-phone', use: { browserName: 'chromium' } },
    // The administrator journeys (and the guest passes' and co-administrators' ones) run a second time on a
    // desktop screen.
    {
      name: 'chromium-desktop',
      testMatch: /(admin-.*|invites-export|guest-passes|roles)\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
      },
    },
  ],
  // The second server, whose gateway has a number, is started by the journeys that use it
  // (e2e/support/gateway-server.ts), in the shard that runs them.
  webServer: [
    {
      command: `rm -rf ${E2E.dataDir} ${E2E.smsFile} ${E2E.own}/*-session.json && mkdir -p ${E2E.own} && ${createAdmins} && ${main}`,
      url: `${E2E.baseUrl}/api/health/`,
      // E2E_REUSE_SERVER=1 lets a developer keep one server running between runs (never in CI).
      reuseExistingServer: process.env.E2E_REUSE_SERVER === '1' && !process.env.CI,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: journeyServerEnv({ PORT: String(E2E.port), DATA_DIR: E2E.dataDir }),
    },
  ],
});
