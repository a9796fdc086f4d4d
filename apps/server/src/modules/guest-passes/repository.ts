/** SQL of the guest passes. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, guestPasses } from '../../db/schema.ts';
import { pageOffset } from '../barrier-policy/policy.ts';

export type GuestPassRow = typeof guestPasses.$inferSelect;

export async function insertGuestPass(
  executor: Executor,
  values: typeof guestPasses.$inferInsert,
): Promise<GuestPassRow> {
  const [row] = await executor.insert(guestPasses).values(values).returning();
  if (!row) throw new Error('guest pass not inserted');
  return row;
}

/** Passes of a barrier, newest first; of one resident when `forUser` is given. */
export async function listGuestPasses(
  executor: Executor,
  filter: { barrierId: number; forUser?: number },
  query: { page: number; page_size: number },
) {
  const conditions = [eq(guestPasses.barrierId, filter.barrierId)];
  if (filter.forUser !== undefined) conditions.push(eq(guestPasses.forUser, filter.forUser));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select()
      .from(guestPasses)
      .where(where)
      .orderBy(desc(guestPasses.id))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(guestPasses).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

export async function findGuestPass(
  executor: Executor,
  passId: number,
  options: { forUpdate?: boolean } = {},
): Promise<GuestPassRow | undefined> {
  const query = executor.select().from(guestPasses).where(eq(guestPasses.id, passId));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** A pass by its token's hash, with its live barrier's address (none once the barrier is deleted). */
export async function findGuestPassByTokenHash(executor: Executor, tokenHash: string) {
  const [row] = await executor
    .select({ pass: guestPasses, address: barriers.address, devicePhone: barriers.devicePhone })
    .from(guestPasses)
    .innerJoin(barriers, and(eq(barriers.id, guestPasses.barrierId), sql`${barriers.deletedAt} is null`))
    .where(eq(guestPasses.tokenHash, tokenHash));
  return row;
}

export async function updateGuestPass(
  executor: Executor,
  passId: number,
  values: Partial<typeof guestPasses.$inferInsert>,
): Promise<GuestPassRow> {
  const [row] = await executor.update(guestPasses).set(values).where(eq(guestPasses.id, passId)).returning();
  if (!row) throw new Error('guest pass not updated');
  return row;
}
