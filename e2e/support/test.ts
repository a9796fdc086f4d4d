/**
 * The journeys' `test`: Playwright's, with one guard on every test. The server's Content-Security-Policy
 * (apps/server/src/plugins/security-headers.ts) allows no inline script and no inline style without the page's
 * nonce; Chromium reports what it blocks on the console, and a blocked style or script fails the test that
 * caused it. Contexts a journey opens itself are watched with `watchForCspViolations`.
 */
import { type BrowserContext, test as base, expect } from '@playwright/test';
import { E2E_GATEWAY_SERVER } from './environment';
import { startGatewayServer } from './gateway-server';

const violations: string[] = [];

export function watchForCspViolations(context: BrowserContext): void {
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(`${message.location().url}: ${message.text()}`);
    }
  });
}

export const test = base.extend<{ cspGuard: undefined }, { gatewayServer: typeof E2E_GATEWAY_SERVER }>({
  // The second journey server, for the journeys that take this fixture (support/gateway-server.ts): started once
  // per worker, on first use, stopped with the worker.
  gatewayServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const stop = await startGatewayServer();
      await use(E2E_GATEWAY_SERVER);
      await stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  cspGuard: [
    async ({ context }, use) => {
      watchForCspViolations(context);
      const before = violations.length;
      await use(undefined);
      expect(violations.slice(before), 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
