/**
 * The live accounts among an import file's numbers (issue 29 item 5). A number with an account is never given
 * access by an import: it is invited (apply.ts). What is read here decides only problems the administrator
 * knows already (his own block, a user of this barrier), so that a row reads alike with or without an account.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { adminBlocks, barrierAccess, users } from '../../db/schema.ts';
import type { LockedBarrier } from '../phones/phone-changes.ts';

export interface ImportAccount {
  id: number;
  /** The barrier's owner blocked this account. */
  blockedByOwner: boolean;
  /** Already a user of this barrier. */
  hasAccess: boolean;
}

/** By number. An account the operator deactivated is an account too (it is invited, and cannot log in). */
export type ImportAccounts = Map<string, ImportAccount>;

export async function loadImportAccounts(
  tx: Executor,
  barrier: LockedBarrier,
  numbers: readonly string[],
): Promise<ImportAccounts> {
  const accounts: ImportAccounts = new Map();
  for (let start = 0; start < numbers.length; start += 1000) {
    const chunk = numbers.slice(start, start + 1000);
    const rows = await tx
      .select({
        id: users.id,
        phone: users.phone,
        blockedBy: adminBlocks.userId,
        access: barrierAccess.userId,
      })
      .from(users)
      .leftJoin(adminBlocks, and(eq(adminBlocks.userId, users.id), eq(adminBlocks.adminId, barrier.ownerId)))
      .leftJoin(
        barrierAccess,
        and(eq(barrierAccess.userId, users.id), eq(barrierAccess.barrierId, barrier.id)),
      )
      .where(and(inArray(users.phone, chunk), isNull(users.deletedAt)));
    for (const row of rows) {
      accounts.set(row.phone, {
        id: row.id,
        blockedByOwner: row.blockedBy !== null,
        hasAccess: row.access !== null,
      });
    }
  }
  return accounts;
}
