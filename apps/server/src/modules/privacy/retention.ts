/**
 * Retention (152-ФЗ art. 5 part 7, issue 28 part 6; docs/decisions/0022): what is kept only for a time is
 * removed once that time is over, and a deleted account's personal data is anonymised 30 days after the
 * deletion. Run daily by jobs/retention.ts; the counts go to one info line and to
 * `propusk_retention_rows_total{kind}`.
 *
 * Never touched: the barriers' whitelists — live phones, `device_slots`, device commands (open ones are what
 * the device is about to hold; finished ones feed the device's health, docs/decisions/0007).
 */
import type { Database } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { anonymiseDeletedAccounts, deleteOlderThan } from './retention-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A deleted account's name and number are kept this long (a mistaken deletion can still be sorted out). */
export const DELETED_ACCOUNT_DAYS = 30;
/** Codes and wrong tries serve limits of at most a day; a month is plenty for any follow-up. */
export const AUTH_RECORD_DAYS = 30;

export type RetentionDeps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'logger' | 'metrics'>;

export interface RetentionResult {
  actions: number;
  deviceMessages: number;
  inboundSms: number;
  gateOpenings: number;
  guestPasses: number;
  verifications: number;
  authFailures: number;
  deletedAccounts: number;
}

export async function runRetention(deps: RetentionDeps): Promise<RetentionResult> {
  const now = deps.clock.now().getTime();
  const cutoff = new Date(now - deps.config.RETENTION_DAYS * DAY_MS);
  const authCutoff = new Date(now - AUTH_RECORD_DAYS * DAY_MS);
  const { db } = deps;
  const result: RetentionResult = {
    actions: await deleteOlderThan(db, 'actions', 'created_at', cutoff),
    deviceMessages: await deleteOlderThan(db, 'device_messages', 'created_at', cutoff),
    inboundSms: await deleteOlderThan(db, 'inbound_sms', 'received_at', cutoff),
    gateOpenings: await deleteOlderThan(db, 'gate_openings', 'requested_at', cutoff),
    // A pass whose window ended before the cutoff can never be used again.
    guestPasses: await deleteOlderThan(db, 'guest_passes', 'end_time', cutoff),
    verifications: await deleteOlderThan(db, 'verifications', 'created_at', authCutoff),
    authFailures: await deleteOlderThan(db, 'auth_failures', 'created_at', authCutoff),
    deletedAccounts: await anonymiseAll(db, new Date(now - DELETED_ACCOUNT_DAYS * DAY_MS)),
  };
  for (const [kind, count] of Object.entries(result)) deps.metrics.retentionRows.inc({ kind }, count);
  deps.logger.info(
    { ...result, retentionDays: deps.config.RETENTION_DAYS, cutoff: cutoff.toISOString() },
    'retention: old history and logs removed, deleted accounts anonymised',
  );
  return result;
}

async function anonymiseAll(db: Database, deletedBefore: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await anonymiseDeletedAccounts(db, deletedBefore);
    total += done;
    if (done === 0) return total;
  }
}
