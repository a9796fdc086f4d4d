/**
 * The statements of the retention job (retention.ts). Each removes or anonymises rows past a cutoff and
 * answers how many. None of them reads or writes the barriers' whitelists: live phones, `device_slots` and
 * open device commands (`queued`, `sent`) are outside every WHERE here by construction.
 */
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/database.ts';

/** Rows removed per statement: a first run on a long-lived database must not hold one huge transaction. */
export const RETENTION_BATCH = 5_000;

type Count = { count: number };

async function countOf(executor: Executor, query: ReturnType<typeof sql>): Promise<number> {
  const { rows } = (await executor.execute(query)) as unknown as { rows: Count[] };
  return Number(rows[0]?.count ?? 0);
}

/** Deletes one batch of `table` rows whose `column` is before `cutoff`, with an optional extra condition. */
function deleteBatch(table: string, column: string, cutoff: Date) {
  const t = sql.identifier(table);
  const c = sql.identifier(column);
  return sql`with gone as (
      delete from ${t} where id in (
        select id from ${t} where ${c} < ${cutoff.toISOString()}::timestamptz limit ${RETENTION_BATCH}
      ) returning 1
    ) select count(*)::int as count from gone`;
}

/** Deletes in batches until none is left; answers the total. */
export async function deleteOlderThan(
  executor: Executor,
  table:
    | 'actions'
    | 'device_messages'
    | 'gate_openings'
    | 'inbound_sms'
    | 'verifications'
    | 'auth_failures'
    | 'guest_passes',
  column: string,
  cutoff: Date,
): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await countOf(executor, deleteBatch(table, column, cutoff));
    total += removed;
    if (removed < RETENTION_BATCH) return total;
  }
}

/**
 * A deleted account's personal data, 30 days after the deletion: the name and number go (the number becomes
 * '', which no live account can have), and so do the numbers and names on his removed phones, the numbers of
 * the guests who used his passes and the number and name inside the history of his phones. Ids stay, so every
 * reference still holds. Only removed phones (`is_active = false`, no slot) are touched. Answers the accounts.
 */
export async function anonymiseDeletedAccounts(executor: Database, deletedBefore: Date): Promise<number> {
  const before = deletedBefore.toISOString();
  return executor.transaction(async (tx) => {
    const { rows } = (await tx.execute(sql`
      select id from users
      where deleted_at is not null and deleted_at < ${before}::timestamptz and phone <> ''
      order by id limit ${RETENTION_BATCH} for update`)) as unknown as { rows: { id: number }[] };
    const list = rows.map((row) => Number(row.id));
    if (list.length === 0) return 0;
    const idArray = sql`array[${sql.join(
      list.map((id) => sql`${id}`),
      sql`, `,
    )}]::int[]`;
    await tx.execute(sql`
      update users set phone = '', full_name = null, password_hash = null, block_reason = null
      where id = any(${idArray})`);
    await tx.execute(sql`
      update phones set phone = '', name = ''
      where user_id = any(${idArray}) and is_active = false and slot is null`);
    await tx.execute(sql`
      update guest_passes set used_phone = null, note = ''
      where (for_user = any(${idArray}) or created_by = any(${idArray})) and status <> 'created'`);
    const blank = (column: string) => {
      const c = sql.identifier(column);
      return sql`(${c} - 'phone' - 'name')
        || case when ${c} ? 'phone' then '{"phone": ""}'::jsonb else '{}'::jsonb end
        || case when ${c} ? 'name' then '{"name": ""}'::jsonb else '{}'::jsonb end`;
    };
    await tx.execute(sql`
      update actions set old_value = ${blank('old_value')}, new_value = ${blank('new_value')}
      where phone_owner_id = any(${idArray})`);
    await tx.execute(sql`delete from sessions where user_id = any(${idArray})`);
    return list.length;
  });
}
