/**
 * The operator's policy and consent to it (152-ФЗ, issue 28 part 6; docs/decisions/0022). Consent is given
 * before the account exists (the login that creates it carries `consent_version`) or, for an account made by
 * a client that knows no policy, later on our client's blocking screen (POST /api/users/me/consent/).
 */
import type { Executor } from '../../db/database.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { hasConsent, insertConsent } from './consent-repository.ts';

export function getPolicy(deps: Pick<Dependencies, 'config'>) {
  const { version, text } = deps.config.privacyPolicy;
  return { version, text };
}

/** A consent names the version the person read: any other (an older page left open) is refused. */
export function assertCurrentPolicyVersion(deps: Pick<Dependencies, 'config'>, version: string): void {
  if (version !== deps.config.privacyPolicy.version) throw conflict('policy_version_outdated');
}

/** Whether this account still has to consent to the current policy (no account: it has to). */
export async function isConsentRequired(
  deps: Pick<Dependencies, 'config'>,
  executor: Executor,
  userId: number | undefined,
): Promise<boolean> {
  if (userId === undefined) return true;
  return !(await hasConsent(executor, userId, deps.config.privacyPolicy.version));
}

export async function consentState(deps: Dependencies, userId: number) {
  return {
    consent_required: await isConsentRequired(deps, deps.db, userId),
    policy_version: deps.config.privacyPolicy.version,
  };
}

/** Records the caller's consent inside the caller's transaction (the login that creates the account). */
export async function recordConsentIn(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  input: { userId: number; version: string; now: Date },
): Promise<Date> {
  assertCurrentPolicyVersion(deps, input.version);
  return insertConsent(executor, {
    userId: input.userId,
    policyVersion: input.version,
    acceptedAt: input.now,
  });
}

export async function recordConsent(deps: Dependencies, caller: AuthenticatedUser, version: string) {
  const acceptedAt = await recordConsentIn(deps.db, deps, {
    userId: caller.id,
    version,
    now: deps.clock.now(),
  });
  deps.logger.info({ userId: caller.id, policyVersion: version }, 'privacy policy consent recorded');
  return { policy_version: version, accepted_at: apiDateTime(acceptedAt) };
}
