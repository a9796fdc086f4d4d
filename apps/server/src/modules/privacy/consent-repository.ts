/** Consents to the privacy policy (`privacy_consents`): one row per user and policy version. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { privacyConsents } from '../../db/schema.ts';

/** Records a consent; a second one to the same version keeps the first time. Answers when it was given. */
export async function insertConsent(
  executor: Executor,
  values: { userId: number; policyVersion: string; acceptedAt: Date },
): Promise<Date> {
  await executor.insert(privacyConsents).values(values).onConflictDoNothing();
  const [row] = await executor
    .select({ acceptedAt: privacyConsents.acceptedAt })
    .from(privacyConsents)
    .where(
      and(eq(privacyConsents.userId, values.userId), eq(privacyConsents.policyVersion, values.policyVersion)),
    );
  return row?.acceptedAt ?? values.acceptedAt;
}

export async function hasConsent(
  executor: Executor,
  userId: number,
  policyVersion: string,
): Promise<boolean> {
  const [row] = await executor
    .select({ one: sql<number>`1` })
    .from(privacyConsents)
    .where(and(eq(privacyConsents.userId, userId), eq(privacyConsents.policyVersion, policyVersion)))
    .limit(1);
  return row !== undefined;
}

export async function listConsents(executor: Executor, userId: number) {
  return executor
    .select({ policyVersion: privacyConsents.policyVersion, acceptedAt: privacyConsents.acceptedAt })
    .from(privacyConsents)
    .where(eq(privacyConsents.userId, userId))
    .orderBy(asc(privacyConsents.acceptedAt), asc(privacyConsents.id));
}
