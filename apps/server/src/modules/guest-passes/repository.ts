/** SQL of the guest passes. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { barriers, guestPasses, users } from '../../db/schema.ts';
import { pageOffset } from '../barrier-policy/policy.ts';

export type GuestPassRow = typeof guestPasses.$inferSelect;

const forUsers = alias(users, 'pass_for_users');
const makers = alias(users, 'pass_makers');

/** A pass with the names and numbers of its resident and of its maker: one statement, two joins. */
const passWithPeople = {
  pass: guestPasses,
  forName: forUsers.fullName,
  forPhone: forUsers.phone,
  makerName: makers.fullName,
  makerPhone: makers.phone,
};
export type GuestPassListRow = {
  pass: GuestPassRow;
  forName: string | null;
  forPhone: string;
  makerName: string | null;
  makerPhone: string | null;
};

const selectWithPeople = (executor: Executor) =>
  executor
    .select(passWithPeople)
    .from(guestPasses)
    .innerJoin(forUsers, eq(forUsers.id, guestPasses.forUser))
    .leftJoin(makers, eq(makers.id, guestPasses.createdBy));

/** One pass with its people (after a change, to answer it as the list shows it). */
export async function findGuestPassWithPeople(
  executor: Executor,
  passId: number,
): Promise<GuestPassListRow | undefined> {
  const [row] = await selectWithPeople(executor).where(eq(guestPasses.id, passId));
  return row;
}

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
    selectWithPeople(executor)
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
