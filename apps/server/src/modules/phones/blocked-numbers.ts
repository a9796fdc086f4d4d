/**
 * An administrator's block holds for the number, not only for the account (issue 29 item 1,
 * docs/decisions/0023): on the barriers of the administrator who blocked him, a number is refused when it is
 * the number kept with the block (the account's number when it was blocked) or the blocked account's number
 * now. Checked by phone-changes.ts before any phone row is written, so that no path (someone's extra phone, a
 * guest pass, an import, an invitation, a changed number) brings it back onto the device.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { adminBlocks, users } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';

/** Which of `numbers` the administrator `adminId` blocked (by the block's number or the account's). */
export async function findBlockedNumbers(
  executor: Executor,
  adminId: number,
  numbers: readonly string[],
): Promise<Set<string>> {
  const blocked = new Set<string>();
  if (numbers.length === 0) return blocked;
  for (let start = 0; start < numbers.length; start += 1000) {
    const chunk = numbers.slice(start, start + 1000);
    const rows = await executor
      .select({ kept: adminBlocks.phone, current: users.phone })
      .from(adminBlocks)
      .innerJoin(users, eq(users.id, adminBlocks.userId))
      .where(
        and(
          eq(adminBlocks.adminId, adminId),
          or(inArray(adminBlocks.phone, chunk), inArray(users.phone, chunk)),
        ),
      );
    const wanted = new Set(chunk);
    for (const row of rows) {
      if (row.kept !== null && wanted.has(row.kept)) blocked.add(row.kept);
      if (wanted.has(row.current)) blocked.add(row.current);
    }
  }
  return blocked;
}

export const numberBlocked = () => conflict('phone_blocked_on_barrier');

/** 409 `phone_blocked_on_barrier` when the administrator blocked any of `numbers`. */
export async function assertNumbersNotBlocked(
  executor: Executor,
  adminId: number,
  numbers: readonly string[],
): Promise<void> {
  if ((await findBlockedNumbers(executor, adminId, numbers)).size > 0) throw numberBlocked();
}
