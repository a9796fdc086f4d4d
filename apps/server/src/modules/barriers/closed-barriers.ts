/**
 * The barriers an administrator closed to a resident by his block (issue 41 major 2): a block removes the
 * resident's access and phones on every barrier of that administrator, and the barrier left his list with no
 * word. GET /api/barriers/my/ names them beside the list (`closed_by_admin`): the barriers of an
 * administrator who blocked him where his primary number was (he had access: the primary phone row stays,
 * inactive, when access ends), which he has no access to now.
 */
import type { ClosedBarrier } from '@propusk/contracts/barriers';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { adminBlocks, barrierAccess, barriers, phones, users } from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import { visibleOwnerPhone } from '../barrier-policy/policy.ts';

/** At most this many are named: a block closes one administrator's barriers, a resident has few. */
const CLOSED_BARRIERS_SHOWN = 20;

export async function closedBarriersOf(executor: Executor, userId: number): Promise<ClosedBarrier[]> {
  const statement = preparedStatement(executor, 'barriers.closedByAdmin', () =>
    executor
      .select({
        id: barriers.id,
        address: barriers.address,
        reason: adminBlocks.reason,
        blockedAt: adminBlocks.createdAt,
        ownerId: users.id,
        ownerName: users.fullName,
        ownerPhone: users.phone,
        ownerPrivacy: users.phonePrivacy,
      })
      .from(adminBlocks)
      .innerJoin(barriers, and(eq(barriers.ownerId, adminBlocks.adminId), isNull(barriers.deletedAt)))
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(
        and(
          eq(adminBlocks.userId, sql.placeholder('userId')),
          sql`exists (select 1 from ${phones} where ${phones.userId} = ${sql.placeholder('userId')} and ${phones.barrierId} = ${barriers.id} and ${phones.type} = 'primary')`,
          sql`not exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${sql.placeholder('userId')})`,
        ),
      )
      .orderBy(desc(adminBlocks.createdAt), desc(barriers.id))
      .limit(CLOSED_BARRIERS_SHOWN),
  );
  const rows = await statement.execute({ userId });
  return rows.map((row) => ({
    id: row.id,
    address: row.address,
    block_reason: row.reason,
    blocked_at: apiDateTime(row.blockedAt),
    owner: {
      id: row.ownerId,
      full_name: row.ownerName,
      // His administrator's contact as the administrator allows: a former resident counts as one of his
      // residents (`protected` shows the number to them), `private` hides it from everyone.
      phone: visibleOwnerPhone(
        { phone: row.ownerPhone, phonePrivacy: row.ownerPrivacy },
        { isOwner: false, hasAccess: true },
      ),
    },
  }));
}
