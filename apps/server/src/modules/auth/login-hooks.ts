/**
 * What other domains do when a number logs in, inside the login's transaction, without auth importing them
 * (auth is beneath them: docs/ARCHITECTURE.md, the layers). Registered once at start-up (src/domain-hooks.ts):
 * the invitations waiting for the number become the account's (access-requests, docs/decisions/0017).
 */
import type { Executor } from '../../db/database.ts';

export type LoginHook = (
  tx: Executor,
  account: { phone: string; userId: number },
  now: Date,
) => Promise<void>;

const hooks = new Map<string, LoginHook>();

/** A second registration under `name` replaces the first. */
export function onLogin(name: string, hook: LoginHook): void {
  hooks.set(name, hook);
}

export async function loggedIn(tx: Executor, account: { phone: string; userId: number }, now: Date) {
  for (const hook of hooks.values()) await hook(tx, account, now);
}
