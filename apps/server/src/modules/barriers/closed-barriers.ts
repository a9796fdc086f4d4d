/**
 * The barriers an administrator closed to a resident by his block (issue 41 major 2): a block removes the
 * resident's access and phones on every barrier of that administrator, and the barrier left his list with no
 * word. GET /api/barriers/my/ names them beside the list (`closed_by_admin`): the barriers of an
 * administrator who blocked him where his primary number was (he had access: the primary phone row stays,
 * inactive, when access ends), which he has no access to now.
 *
 * They are read as one JSON column of the list's first page (`closedBarriersColumn`: an uncorrelated
 * sub-select, computed once per statement), not by a statement of their own; only a first page with no row
 * to carry it asks them alone (`closedBarriersOf`).
 */
import type { ClosedBarrier } from '@propusk/contracts/barriers';
import type { PhonePrivacy } from '@propusk/contracts/common';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { adminBlocks, barrierAccess, barriers, phones, users } from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import { visibleOwnerPhone } from '../barrier-policy/policy.ts';

/** At most this many are named: a block closes one administrator's barriers, a resident has few. */
const CLOSED_BARRIERS_SHOWN = 20;

/** One closed barrier as the JSON column carries it (timestamps as PostgreSQL writes them in JSON). */
interface ClosedBarrierJson {
  id: number;
  address: string;
  reason: string;
  blocked_at: string;
  owner_id: number;
  owner_name: string | null;
  owner_phone: string;
  owner_privacy: PhonePrivacy;
}

/**
 * The closed barriers of `userId` (a placeholder of the statement), newest block first, as a JSON array
 * (`[]` when none). Every table is named in full: inside a page statement over `barriers` these names are the
 * sub-select's own (the nearest scope).
 */
export function closedBarriersColumn(userId: Placeholder | number): SQL<ClosedBarrierJson[]> {
  return sql<
    ClosedBarrierJson[]
  >`(select coalesce(json_agg(closed order by closed.blocked_at desc, closed.id desc), '[]'::json) from (
    select ${barriers.id} as id, ${barriers.address} as address, ${adminBlocks.reason} as reason,
      ${adminBlocks.createdAt} as blocked_at, ${users.id} as owner_id, ${users.fullName} as owner_name,
      ${users.phone} as owner_phone, ${users.phonePrivacy} as owner_privacy
    from ${adminBlocks}
    inner join ${barriers} on ${barriers.ownerId} = ${adminBlocks.adminId} and ${barriers.deletedAt} is null
    inner join ${users} on ${users.id} = ${barriers.ownerId}
    where ${adminBlocks.userId} = ${userId}
      and exists (select 1 from ${phones} where ${phones.userId} = ${userId} and ${phones.barrierId} = ${barriers.id} and ${phones.type} = 'primary')
      and not exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${userId})
    order by ${adminBlocks.createdAt} desc, ${barriers.id} desc
    limit ${sql.raw(String(CLOSED_BARRIERS_SHOWN))}
  ) as closed)`;
}

/** The column's value as the API gives it. */
export function toClosedBarriers(rows: ClosedBarrierJson[]): ClosedBarrier[] {
  return rows.map((row) => ({
    id: row.id,
    address: row.address,
    block_reason: row.reason,
    blocked_at: apiDateTime(new Date(row.blocked_at)),
    owner: {
      id: row.owner_id,
      full_name: row.owner_name,
      // His administrator's contact as the administrator allows: a former resident counts as one of his
      // residents (`protected` shows the number to them), `private` hides it from everyone.
      phone: visibleOwnerPhone(
        { phone: row.owner_phone, phonePrivacy: row.owner_privacy },
        { isOwner: false, hasAccess: true },
      ),
    },
  }));
}

/**
 * The closed barriers alone: for a first page that has no row to carry the column (rare: he has no barrier
 * left), so sent as a plain statement.
 */
export async function closedBarriersOf(executor: Executor, userId: number): Promise<ClosedBarrier[]> {
  const result = (await executor.execute(
    sql`select ${closedBarriersColumn(userId)} as closed`,
  )) as unknown as { rows: { closed: ClosedBarrierJson[] | null }[] };
  return toClosedBarriers(result.rows[0]?.closed ?? []);
}
