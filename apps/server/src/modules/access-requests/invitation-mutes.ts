/**
 * A person mutes one administrator's invitations (issue 40 item 4, docs/decisions/0030). From the card of an
 * invitation («Не получать приглашения от этого администратора») he mutes the owner of its barrier: that
 * invitation is hidden, and every later one of this owner to him (by id, by number, by import) is made as
 * usual for the administrator (who sees it waiting, as he sees any invitation nobody answers) but is hidden
 * from the person from the start, and an invitation by number to him sends no SMS. The administrator is never
 * told. The person lists his mutes and lifts one in «Заявки»; lifting shows the later invitations no more than
 * hiding did (he asks for access himself instead).
 */
import type { InvitationMute } from '@propusk/contracts/access-requests';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accessRequests, barriers, invitationMutes, users } from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';

/** The person muted this administrator's invitations. */
export async function hasMuted(executor: Executor, userId: number, adminId: number): Promise<boolean> {
  const [row] = await executor
    .select({ id: invitationMutes.id })
    .from(invitationMutes)
    .where(and(eq(invitationMutes.userId, userId), eq(invitationMutes.adminId, adminId)))
    .limit(1);
  return row !== undefined;
}

/** SQL: the person `userId` muted the owner of the barrier `barrierId` (for an insert's hidden flag). */
export const mutedOwnerSql = (userId: number, barrierId: number) =>
  sql<boolean>`exists (select 1 from ${invitationMutes} m join ${barriers} b on b.owner_id = m.admin_id
    where m.user_id = ${userId} and b.id = ${barrierId})`;

export function createInvitationMuteService(deps: Dependencies) {
  const { db } = deps;

  async function list(caller: AuthenticatedUser): Promise<InvitationMute[]> {
    const rows = await db
      .select({ id: invitationMutes.id, adminName: users.fullName, createdAt: invitationMutes.createdAt })
      .from(invitationMutes)
      .innerJoin(users, eq(users.id, invitationMutes.adminId))
      .where(eq(invitationMutes.userId, caller.id))
      .orderBy(desc(invitationMutes.id))
      .limit(200);
    return rows.map((row) => ({
      id: row.id,
      admin_name: row.adminName,
      created_at: apiDateTime(row.createdAt) ?? '',
    }));
  }

  return {
    list,

    /** Mutes the owner of the barrier of the caller's invitation `requestId`, and hides that invitation. */
    async muteFromInvitation(caller: AuthenticatedUser, requestId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const [request] = await tx
          .select({ ownerId: barriers.ownerId })
          .from(accessRequests)
          .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
          .where(
            and(
              eq(accessRequests.id, requestId),
              eq(accessRequests.userId, caller.id),
              eq(accessRequests.initiator, 'admin'),
            ),
          );
        if (!request) throw notFound('access_request_not_found');
        await tx
          .insert(invitationMutes)
          .values({ userId: caller.id, adminId: request.ownerId, createdAt: deps.clock.now() })
          .onConflictDoNothing();
        // Every invitation of this owner to him that waits is hidden with it.
        await tx
          .update(accessRequests)
          .set({ hiddenForUser: true })
          .where(
            and(
              eq(accessRequests.userId, caller.id),
              eq(accessRequests.initiator, 'admin'),
              eq(accessRequests.status, 'pending'),
              sql`${accessRequests.barrierId} in (select id from ${barriers} where owner_id = ${request.ownerId})`,
            ),
          );
      });
    },

    async unmute(caller: AuthenticatedUser, muteId: number): Promise<void> {
      const removed = await db
        .delete(invitationMutes)
        .where(and(eq(invitationMutes.id, muteId), eq(invitationMutes.userId, caller.id)))
        .returning({ id: invitationMutes.id });
      if (removed.length === 0) throw notFound('invitations_muted_not_found');
    },
  };
}
