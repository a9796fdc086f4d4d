/**
 * What other domains do when a number logs in, inside the login's transaction, without auth importing them
 * (auth is beneath them: docs/ARCHITECTURE.md, the layers). Built with the dependencies, before the app
 * (src/domain-hooks.ts `buildLoginHooks`): the invitations waiting for the number become the account's
 * (access-requests, docs/decisions/0017).
 */
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';

export type LoginHook = (
  tx: Executor,
  account: { phone: string; userId: number },
  now: Date,
) => Promise<void>;

/** Auth's hooks in the dependencies: declared here, since lib (beneath auth) cannot name them. */
declare module '../../lib/dependencies.ts' {
  interface Dependencies {
    /** Told of every login, in order (src/domain-hooks.ts `buildLoginHooks`). */
    loginHooks: readonly LoginHook[];
  }
}

export async function loggedIn(
  deps: Pick<Dependencies, 'loginHooks'>,
  tx: Executor,
  account: { phone: string; userId: number },
  now: Date,
) {
  for (const hook of deps.loginHooks) await hook(tx, account, now);
}
