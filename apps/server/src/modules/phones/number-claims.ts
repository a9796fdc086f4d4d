/**
 * Who may hold a number on a barrier (issue 29 item 2, docs/decisions/0023). A number is first its account's:
 * - nobody adds as an extra phone (permanent, temporary, by schedule) the number another live account logs in
 *   with: that person asks for access himself (or proves the number, as a guest does with a pass's code;
 *   checked with the phone's other rules by `admitPhone`, phone-admission.ts);
 * - an extra phone that holds a number before its account came to the barrier gives way to it: when that
 *   account's primary phone is added, the extra phone is taken off (phone-changes.ts, reason `primary_taken`,
 *   which the resident who added it sees in his history).
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { phones } from '../../db/schema.ts';

/** Other users' active extra phones on the barrier that hold `number` (at most one: numbers are unique). */
export async function findExtraPhonesOfOthers(
  executor: Executor,
  barrierId: number,
  userId: number,
  number: string,
): Promise<number[]> {
  const rows = await executor
    .select({ id: phones.id })
    .from(phones)
    .where(
      and(
        eq(phones.barrierId, barrierId),
        eq(phones.isActive, true),
        eq(phones.phone, number),
        ne(phones.type, 'primary'),
        ne(phones.userId, userId),
      ),
    );
  return rows.map((row) => row.id);
}
