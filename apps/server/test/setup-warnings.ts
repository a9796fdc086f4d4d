/**
 * Every server test file starts here (vitest.config.ts, `setupFiles`). A query sent on a connection that is
 * still running another — `Promise.all` inside a transaction — is queued by node-postgres with a deprecation
 * warning today and refused by pg 9. The warning is made a failure of the run, so the next one is found by the
 * PostgreSQL pass that meets it, not by an upgrade (dispatch.ts sent three reads at once on its transaction).
 */
const installed = Symbol.for('propusk.test.pgConcurrentQueryGuard');
const guarded = globalThis as { [installed]?: true };

if (!guarded[installed]) {
  guarded[installed] = true;
  process.on('warning', (warning) => {
    if (warning.name === 'DeprecationWarning' && /already executing a query/.test(warning.message)) {
      throw new Error(
        `A query was sent on a connection busy with another: ${warning.message}\n${warning.stack}`,
      );
    }
  });
}
