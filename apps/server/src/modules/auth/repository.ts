/** Queries of the authentication module: verifications, failures, sessions, users looked up by phone. */

import { and, count, desc, eq, gt, inArray, isNull, lt, max, min, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  adminPasswordSteps,
  authFailures,
  guestPasses,
  phoneInvitations,
  retiredRefreshTokens,
  sessions,
  users,
  verifications,
} from '../../db/schema.ts';
import type { CodeMode } from './verification.ts';

export type VerificationRow = typeof verifications.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/** Marks an administrator whose password must be replaced before his administrator area opens. */
export async function requirePasswordChange(executor: Executor, userId: number): Promise<void> {
  await executor.update(users).set({ passwordChangeRequired: true }).where(eq(users.id, userId));
}

/** The live (not deleted) account of a phone, if any. */
export async function findLiveUserByPhone(executor: Executor, phone: string): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.phone, phone), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export async function findLiveUserById(executor: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** Locks the user's row for the rest of the transaction (serialises changes to one account). */
export async function lockLiveUser(executor: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .for('update')
    .limit(1);
  return row;
}

/** Creates the account of a first login; a concurrent first login of the same phone yields the same row. */
export async function insertUserIfMissing(executor: Executor, phone: string, now: Date): Promise<UserRow> {
  await executor
    .insert(users)
    .values({ phone, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: users.phone, where: sql`${users.deletedAt} is null` });
  const row = await findLiveUserByPhone(executor, phone);
  if (!row) throw new Error('user row missing after insert');
  return row;
}

/** Serialises code requests of one phone (cooldown and daily cap checks, then insert). */
export async function lockPhoneCodes(executor: Executor, phone: string): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`verification:${phone}`}))`);
}

/** When the latest code of a number and mode was asked for, from any address (the resend pause). */
export async function findLatestVerification(
  executor: Executor,
  phone: string,
  mode: CodeMode,
): Promise<Pick<VerificationRow, 'createdAt'> | undefined> {
  const [row] = await executor
    .select({ createdAt: verifications.createdAt })
    .from(verifications)
    .where(and(eq(verifications.phone, phone), eq(verifications.mode, mode)))
    .orderBy(desc(verifications.createdAt))
    .limit(1);
  return row;
}

/** Serialises the server's hourly SMS budget of codes (count, then insert). */
export async function lockCodeBudget(executor: Executor): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext('verification-budget'))`);
}

/**
 * SMS of the code budgets since `since`: every code, and every invitation SMS to a number without an account
 * (issue 14 part 2, `phone_invitations.sms_sent_at`), optionally of one phone; and when the oldest of them was.
 */
async function countCodeSmsSince(
  executor: Executor,
  since: Date,
  phone: string | null,
): Promise<{ count: number; oldest: Date | null }> {
  const codes = executor
    .select({ count: count(), oldest: min(verifications.createdAt) })
    .from(verifications)
    .where(
      and(phone === null ? undefined : eq(verifications.phone, phone), gt(verifications.createdAt, since)),
    );
  const invitations = executor
    .select({ count: count(), oldest: min(phoneInvitations.smsSentAt) })
    .from(phoneInvitations)
    .where(
      and(
        phone === null ? undefined : eq(phoneInvitations.phone, phone),
        gt(phoneInvitations.smsSentAt, since),
      ),
    );
  // One after the other: inside a transaction the executor is one connection.
  const [fromCodes] = await codes;
  const [fromInvitations] = await invitations;
  const dates = [fromCodes?.oldest, fromInvitations?.oldest]
    .filter((value): value is Date => Boolean(value))
    .map((value) => new Date(value));
  return {
    count: (fromCodes?.count ?? 0) + (fromInvitations?.count ?? 0),
    oldest: dates.length > 0 ? new Date(Math.min(...dates.map((date) => date.getTime()))) : null,
  };
}

/** Code-budget SMS sent by the whole server since `since`, and when the oldest of them was. */
export function countAllVerificationsSince(executor: Executor, since: Date) {
  return countCodeSmsSince(executor, since, null);
}

/** Code-budget SMS sent to a phone since `since` (any mode, any address), and when the oldest was. */
export function countVerificationsSince(executor: Executor, phone: string, since: Date) {
  return countCodeSmsSince(executor, since, phone);
}

/** Codes of the public share since `since` (issue 29 part 4), and when the oldest of them was. */
export async function countPublicVerificationsSince(
  executor: Executor,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await executor
    .select({ count: count(), oldest: min(verifications.createdAt) })
    .from(verifications)
    .where(and(gt(verifications.createdAt, since), eq(verifications.budgetShare, 'public')));
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Codes asked for through one guest pass since `since`. */
export async function countGuestPassCodesSince(
  executor: Executor,
  guestPassId: number,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await executor
    .select({ count: count(), oldest: min(verifications.createdAt) })
    .from(verifications)
    .where(and(eq(verifications.guestPassId, guestPassId), gt(verifications.createdAt, since)));
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Codes asked for through any guest pass of one resident since `since`. */
export async function countResidentGuestCodesSince(
  executor: Executor,
  residentId: number,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await executor
    .select({ count: count(), oldest: min(verifications.createdAt) })
    .from(verifications)
    .innerJoin(guestPasses, eq(guestPasses.id, verifications.guestPassId))
    .where(and(eq(guestPasses.forUser, residentId), gt(verifications.createdAt, since)));
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function insertVerification(
  executor: Executor,
  values: {
    phone: string;
    mode: CodeMode;
    codeHash: string;
    tokenHash: string;
    requestedIp: string;
    createdAt: Date;
    expiresAt: Date;
    budgetShare: 'public' | 'account' | 'admin';
    guestPassId: number | null;
  },
): Promise<number> {
  const [row] = await executor.insert(verifications).values(values).returning({ id: verifications.id });
  if (!row) throw new Error('verification not stored');
  return row.id;
}

export async function deleteVerification(executor: Executor, id: number): Promise<void> {
  await executor.delete(verifications).where(eq(verifications.id, id));
}

export async function findVerificationByTokenHash(
  executor: Executor,
  tokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<VerificationRow | undefined> {
  const query = executor.select().from(verifications).where(eq(verifications.tokenHash, tokenHash)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/**
 * Claims one try of a code before it is compared (every try counts, the right one too), unless the code has
 * had all its tries; returns false when it had. One UPDATE, so parallel tries cannot read a stale count.
 */
/** Claims one try of a code; the tries it has left after this one, or null when none was left to claim. */
export async function claimCodeTry(
  executor: Executor,
  id: number,
  maxAttempts: number,
): Promise<number | null> {
  const [row] = await executor
    .update(verifications)
    .set({ failedAttempts: sql`${verifications.failedAttempts} + 1` })
    .where(and(eq(verifications.id, id), sql`${verifications.failedAttempts} < ${maxAttempts}`))
    .returning({ failedAttempts: verifications.failedAttempts });
  return row ? maxAttempts - row.failedAttempts : null;
}

export async function markVerified(executor: Executor, id: number, now: Date): Promise<void> {
  await executor
    .update(verifications)
    .set({ status: 'verified', verifiedAt: now })
    .where(and(eq(verifications.id, id), eq(verifications.status, 'sent')));
}

/** Spends a verified token; false when another call spent it first. */
export async function markUsed(executor: Executor, id: number, now: Date): Promise<boolean> {
  const rows = await executor
    .update(verifications)
    .set({ status: 'used', usedAt: now })
    .where(and(eq(verifications.id, id), eq(verifications.status, 'verified')))
    .returning({ id: verifications.id });
  return rows.length > 0;
}

/** Serialises the per-phone failure budget of one phone (count, then record) across processes. */
export async function lockPhoneFailures(executor: Executor, phone: string): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`auth-failures:${phone}`}))`);
}

export async function insertAuthFailure(
  executor: Executor,
  phone: string,
  kind: 'code' | 'password',
  now: Date,
  ip: string | null = null,
): Promise<number> {
  const [row] = await executor
    .insert(authFailures)
    .values({ phone, kind, ip, createdAt: now })
    .returning({ id: authFailures.id });
  if (!row) throw new Error('auth failure not stored');
  return row.id;
}

/** Takes back a failure recorded ahead of a comparison that then succeeded. */
export async function deleteAuthFailure(executor: Executor, id: number): Promise<void> {
  await executor.delete(authFailures).where(eq(authFailures.id, id));
}

/** Failures of one kind of a phone since `since` (from one address if given), the oldest and the newest. */
export async function countAuthFailuresSince(
  executor: Executor,
  phone: string,
  kind: 'code' | 'password',
  since: Date,
  ip?: string,
): Promise<{ count: number; oldest: Date | null; newest: Date | null }> {
  const [row] = await executor
    .select({ count: count(), oldest: min(authFailures.createdAt), newest: max(authFailures.createdAt) })
    .from(authFailures)
    .where(
      and(
        eq(authFailures.phone, phone),
        eq(authFailures.kind, kind),
        gt(authFailures.createdAt, since),
        ip === undefined ? undefined : eq(authFailures.ip, ip),
      ),
    );
  return {
    count: row?.count ?? 0,
    oldest: row?.oldest ? new Date(row.oldest) : null,
    newest: row?.newest ? new Date(row.newest) : null,
  };
}

/** Forgets a phone's failures of one kind (a right password ends the backoff). */
export async function deleteAuthFailures(executor: Executor, phone: string, kind: 'code' | 'password') {
  await executor.delete(authFailures).where(and(eq(authFailures.phone, phone), eq(authFailures.kind, kind)));
}

export async function insertPasswordStep(
  executor: Executor,
  values: { userId: number; nonceHash: string; ip: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await executor.insert(adminPasswordSteps).values(values);
}

/**
 * Spends one unspent password step of the user: the one of this nonce, or without a nonce the newest one made
 * from `ip` since `sameAddressSince`. One UPDATE, so two logins cannot spend the same step. False when none.
 */
export async function spendPasswordStep(
  executor: Executor,
  input: { userId: number; nonceHash: string | null; ip: string; now: Date; sameAddressSince: Date },
): Promise<boolean> {
  const open = and(
    eq(adminPasswordSteps.userId, input.userId),
    isNull(adminPasswordSteps.usedAt),
    gt(adminPasswordSteps.expiresAt, input.now),
  );
  const which =
    input.nonceHash !== null
      ? and(open, eq(adminPasswordSteps.nonceHash, input.nonceHash))
      : and(
          open,
          eq(adminPasswordSteps.ip, input.ip),
          gt(adminPasswordSteps.createdAt, input.sameAddressSince),
        );
  const candidate = executor
    .select({ id: adminPasswordSteps.id })
    .from(adminPasswordSteps)
    .where(which)
    .orderBy(desc(adminPasswordSteps.createdAt))
    .limit(1);
  const rows = await executor
    .update(adminPasswordSteps)
    .set({ usedAt: input.now })
    .where(and(inArray(adminPasswordSteps.id, candidate), isNull(adminPasswordSteps.usedAt)))
    .returning({ id: adminPasswordSteps.id });
  return rows.length > 0;
}

/** Forgets the user's password steps (password changed, account blocked or deleted), and old spent ones. */
export async function deletePasswordSteps(executor: Executor, userId: number): Promise<void> {
  await executor.delete(adminPasswordSteps).where(eq(adminPasswordSteps.userId, userId));
}

export async function deleteOldPasswordSteps(executor: Executor, before: Date): Promise<void> {
  await executor.delete(adminPasswordSteps).where(lt(adminPasswordSteps.expiresAt, before));
}

const sessionForRefresh = {
  id: sessions.id,
  userId: sessions.userId,
  refreshTokenHash: sessions.refreshTokenHash,
  previousRefreshTokenHash: sessions.previousRefreshTokenHash,
  createdAt: sessions.createdAt,
  expiresAt: sessions.expiresAt,
  revokedAt: sessions.revokedAt,
  userIsActive: users.isActive,
  userDeletedAt: users.deletedAt,
};

/** The session whose current or previous refresh token has this hash, locked for the rest of the transaction. */
export async function lockSessionByRefreshHash(executor: Executor, refreshTokenHash: string) {
  const [row] = await executor
    .select(sessionForRefresh)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      or(
        eq(sessions.refreshTokenHash, refreshTokenHash),
        eq(sessions.previousRefreshTokenHash, refreshTokenHash),
      ),
    )
    .for('update', { of: sessions })
    .limit(1);
  return row;
}

/** The session a rotated-out refresh token belonged to, if it is one. */
export async function findRetiredRefreshToken(executor: Executor, tokenHash: string) {
  const [row] = await executor
    .select({ sessionId: retiredRefreshTokens.sessionId, userId: sessions.userId })
    .from(retiredRefreshTokens)
    .innerJoin(sessions, eq(sessions.id, retiredRefreshTokens.sessionId))
    .where(eq(retiredRefreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function retireRefreshToken(
  executor: Executor,
  tokenHash: string,
  sessionId: string,
  now: Date,
) {
  await executor
    .insert(retiredRefreshTokens)
    .values({ tokenHash, sessionId, retiredAt: now })
    .onConflictDoNothing();
}

/** Forgets rotated-out tokens older than any session can live (their sessions have ended anyway). */
export async function deleteRetiredRefreshTokens(executor: Executor, before: Date): Promise<void> {
  await executor.delete(retiredRefreshTokens).where(lt(retiredRefreshTokens.retiredAt, before));
}

export async function rotateSession(
  executor: Executor,
  id: string,
  values: { refreshTokenHash: string; previousRefreshTokenHash: string | null; now: Date; expiresAt: Date },
) {
  await executor
    .update(sessions)
    .set({
      refreshTokenHash: values.refreshTokenHash,
      previousRefreshTokenHash: values.previousRefreshTokenHash,
      lastUsedAt: values.now,
      expiresAt: values.expiresAt,
    })
    .where(eq(sessions.id, id));
}

/** The session of a refresh token, current, previous or rotated out (logout ends it whichever is sent). */
export async function findSessionIdByAnyRefreshHash(
  executor: Executor,
  refreshTokenHash: string,
): Promise<string | undefined> {
  const [live] = await executor
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      or(
        eq(sessions.refreshTokenHash, refreshTokenHash),
        eq(sessions.previousRefreshTokenHash, refreshTokenHash),
      ),
    )
    .limit(1);
  if (live) return live.id;
  return (await findRetiredRefreshToken(executor, refreshTokenHash))?.sessionId;
}

/** Revokes a session; true when it was live until now. */
export async function revokeSession(executor: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await executor
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}
