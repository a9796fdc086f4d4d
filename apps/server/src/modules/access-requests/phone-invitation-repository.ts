/** SQL of invitations by number to people without an account (issue 14 part 2; schema: phone_invitations). */
import { and, count, desc, eq, gt, isNotNull, isNull, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accessRequests, barrierAccess, barriers, phoneInvitations } from '../../db/schema.ts';
import { holdsPermissionSql, pageOffset } from '../barrier-policy/policy.ts';
import { mutedOwnerSql } from './invitation-mutes.ts';

export type PhoneInvitationRow = typeof phoneInvitations.$inferSelect;

/** Serialises one administrator's invitations by number (count, then insert). */
export async function lockAdminInvitations(executor: Executor, adminId: number): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-invitations:${adminId}`}))`);
}

/**
 * Invitations by number this administrator made by hand since `since`, and when the oldest of them was. An
 * import's invitations (`extra_phones` not null) send no SMS and are bounded by the import's own row cap.
 */
export async function countByAdminSince(executor: Executor, adminId: number, since: Date) {
  const [row] = await executor
    .select({ count: count(), oldest: min(phoneInvitations.createdAt) })
    .from(phoneInvitations)
    .where(
      and(
        eq(phoneInvitations.invitedBy, adminId),
        gt(phoneInvitations.createdAt, since),
        isNull(phoneInvitations.extraPhones),
      ),
    );
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function findWaiting(executor: Executor, barrierId: number, phone: string) {
  const [row] = await executor
    .select({ id: phoneInvitations.id })
    .from(phoneInvitations)
    .where(
      and(
        eq(phoneInvitations.barrierId, barrierId),
        eq(phoneInvitations.phone, phone),
        eq(phoneInvitations.status, 'waiting'),
      ),
    )
    .limit(1);
  return row;
}

/** Whether this number was ever told by SMS about this barrier (any invitation, waiting or not). */
export async function wasToldAbout(executor: Executor, barrierId: number, phone: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: phoneInvitations.id })
    .from(phoneInvitations)
    .where(
      and(
        eq(phoneInvitations.barrierId, barrierId),
        eq(phoneInvitations.phone, phone),
        isNotNull(phoneInvitations.smsSentAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertInvitation(
  executor: Executor,
  values: { barrierId: number; phone: string; invitedBy: number; smsSentAt: Date | null; now: Date },
): Promise<number> {
  const [row] = await executor
    .insert(phoneInvitations)
    .values({
      barrierId: values.barrierId,
      phone: values.phone,
      invitedBy: values.invitedBy,
      smsSentAt: values.smsSentAt,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning({ id: phoneInvitations.id });
  if (!row) throw new Error('phone invitation not stored');
  return row.id;
}

/** The SMS did not leave after all: it no longer counts, and the number may be told later. */
export async function clearSmsSent(executor: Executor, id: number): Promise<void> {
  await executor.update(phoneInvitations).set({ smsSentAt: null }).where(eq(phoneInvitations.id, id));
}

const listColumns = {
  id: phoneInvitations.id,
  barrierId: phoneInvitations.barrierId,
  barrierAddress: barriers.address,
  ownerId: barriers.ownerId,
  phone: phoneInvitations.phone,
  status: phoneInvitations.status,
  smsSentAt: phoneInvitations.smsSentAt,
  createdAt: phoneInvitations.createdAt,
};
export type PhoneInvitationListRow = NonNullable<Awaited<ReturnType<typeof findInvitation>>>;

export async function findInvitation(executor: Executor, id: number) {
  const [row] = await executor
    .select(listColumns)
    .from(phoneInvitations)
    .innerJoin(barriers, eq(barriers.id, phoneInvitations.barrierId))
    .where(and(eq(phoneInvitations.id, id), isNull(barriers.deletedAt)));
  return row;
}

/** Waiting invitations on the administrator's live barriers (or one of them), newest first. */
export async function listWaiting(
  executor: Executor,
  adminId: number,
  barrierId: number | undefined,
  query: { page: number; page_size: number },
) {
  const where = and(
    holdsPermissionSql(barriers.id, adminId, 'users.manage'),
    isNull(barriers.deletedAt),
    eq(phoneInvitations.status, 'waiting'),
    barrierId === undefined ? undefined : eq(phoneInvitations.barrierId, barrierId),
  );
  const rows = await executor
    .select(listColumns)
    .from(phoneInvitations)
    .innerJoin(barriers, eq(barriers.id, phoneInvitations.barrierId))
    .where(where)
    .orderBy(desc(phoneInvitations.createdAt), desc(phoneInvitations.id))
    .limit(query.page_size)
    .offset(pageOffset(query));
  const [total] = await executor
    .select({ count: count() })
    .from(phoneInvitations)
    .innerJoin(barriers, eq(barriers.id, phoneInvitations.barrierId))
    .where(where);
  return { rows, total: total?.count ?? 0 };
}

/** Cancels a waiting invitation; false if it was no longer waiting (claimed or cancelled meanwhile). */
export async function cancelWaiting(executor: Executor, id: number, now: Date): Promise<boolean> {
  const updated = await executor
    .update(phoneInvitations)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(phoneInvitations.id, id), eq(phoneInvitations.status, 'waiting')))
    .returning({ id: phoneInvitations.id });
  return updated.length > 0;
}

/** Whether an invitation waits for this number (phone_invitations_phone_idx): the cheap probe before a claim. */
export async function hasWaitingFor(executor: Executor, phone: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: phoneInvitations.id })
    .from(phoneInvitations)
    .where(and(eq(phoneInvitations.phone, phone), eq(phoneInvitations.status, 'waiting')))
    .limit(1);
  return Boolean(row);
}

/**
 * The login that created the account for `phone` claims every invitation waiting for it: each becomes a
 * pending access request from the administrator (an ordinary invitation), in the caller's transaction. On a
 * deleted barrier the invitation is cancelled; where the user already has access or a pending request,
 * nothing new is made. Returns the ids of the access requests made.
 */
export async function claimWaitingInvitations(
  executor: Executor,
  phone: string,
  userId: number,
  now: Date,
): Promise<number[]> {
  const waiting = await executor
    .select({
      id: phoneInvitations.id,
      barrierId: phoneInvitations.barrierId,
      barrierDeletedAt: barriers.deletedAt,
    })
    .from(phoneInvitations)
    .innerJoin(barriers, eq(barriers.id, phoneInvitations.barrierId))
    .where(and(eq(phoneInvitations.phone, phone), eq(phoneInvitations.status, 'waiting')))
    .for('update', { of: phoneInvitations });
  const made: number[] = [];
  for (const invitation of waiting) {
    if (invitation.barrierDeletedAt !== null) {
      await executor
        .update(phoneInvitations)
        .set({ status: 'cancelled', updatedAt: now })
        .where(eq(phoneInvitations.id, invitation.id));
      continue;
    }
    const [hasAccess] = await executor
      .select({ userId: barrierAccess.userId })
      .from(barrierAccess)
      .where(and(eq(barrierAccess.barrierId, invitation.barrierId), eq(barrierAccess.userId, userId)));
    const [request] = hasAccess
      ? []
      : await executor
          .insert(accessRequests)
          .values({
            userId,
            barrierId: invitation.barrierId,
            initiator: 'admin',
            status: 'pending',
            // Muted by the person: kept for the administrator, never shown to him (invitation-mutes.ts).
            hiddenForUser: mutedOwnerSql(userId, invitation.barrierId),
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: accessRequests.id });
    if (request) made.push(request.id);
    // A request already pending (he asked himself) carries the invitation's extra numbers instead.
    const linked =
      request ?? (hasAccess ? undefined : await findPending(executor, userId, invitation.barrierId));
    await executor
      .update(phoneInvitations)
      .set({ status: 'claimed', accessRequestId: linked?.id ?? null, updatedAt: now })
      .where(eq(phoneInvitations.id, invitation.id));
  }
  return made;
}

async function findPending(executor: Executor, userId: number, barrierId: number) {
  const [row] = await executor
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(
      and(
        eq(accessRequests.userId, userId),
        eq(accessRequests.barrierId, barrierId),
        eq(accessRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The extra numbers an import kept for the person of this access request (the newest claimed invitation
 * linked to it that has any), or none.
 */
export async function findExtraPhonesFor(executor: Executor, accessRequestId: number) {
  const [row] = await executor
    .select({ invitedBy: phoneInvitations.invitedBy, extraPhones: phoneInvitations.extraPhones })
    .from(phoneInvitations)
    .where(
      and(
        eq(phoneInvitations.accessRequestId, accessRequestId),
        sql`jsonb_array_length(${phoneInvitations.extraPhones}) > 0`,
      ),
    )
    .orderBy(desc(phoneInvitations.id))
    .limit(1);
  return row ? { invitedBy: row.invitedBy, extraPhones: row.extraPhones ?? [] } : null;
}
