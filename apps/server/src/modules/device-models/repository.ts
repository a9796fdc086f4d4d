/**
 * Models an administrator defined (`device_models`): the rows, the barriers that use one, and the
 * conformance runs that verify a barrier on one. SQL only; the rules are in ./service.ts.
 */
import { definedModelKey } from '@propusk/devices/models';
import { and, asc, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceConformanceRuns, deviceModels, users } from '../../db/schema.ts';

export type DeviceModelRow = typeof deviceModels.$inferSelect;

export async function listAllModels(executor: Executor): Promise<{ id: number; definition: unknown }[]> {
  return executor.select({ id: deviceModels.id, definition: deviceModels.definition }).from(deviceModels);
}

export async function listOwnModels(executor: Executor, ownerId: number): Promise<DeviceModelRow[]> {
  return executor
    .select()
    .from(deviceModels)
    .where(eq(deviceModels.ownerId, ownerId))
    .orderBy(asc(deviceModels.id));
}

export async function countOwnModels(executor: Executor, ownerId: number): Promise<number> {
  const [row] = await executor
    .select({ n: count() })
    .from(deviceModels)
    .where(eq(deviceModels.ownerId, ownerId));
  return row?.n ?? 0;
}

/** His model, locked for the rest of the transaction when `lock` (a delete and a barrier on it serialise). */
export async function findOwnModel(
  executor: Executor,
  ownerId: number,
  id: number,
  lock: 'update' | 'share' | null = null,
): Promise<DeviceModelRow | undefined> {
  const query = executor
    .select()
    .from(deviceModels)
    .where(and(eq(deviceModels.id, id), eq(deviceModels.ownerId, ownerId)));
  const [row] = await (lock === 'update'
    ? query.for('update')
    : lock === 'share'
      ? query.for('share')
      : query);
  return row;
}

export async function findModel(executor: Executor, id: number): Promise<DeviceModelRow | undefined> {
  const [row] = await executor.select().from(deviceModels).where(eq(deviceModels.id, id));
  return row;
}

export async function insertModel(
  executor: Executor,
  values: { ownerId: number; name: string; definition: unknown; now: Date },
): Promise<DeviceModelRow> {
  const [row] = await executor
    .insert(deviceModels)
    .values({
      ownerId: values.ownerId,
      name: values.name,
      definition: values.definition,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning();
  if (!row) throw new Error('device_models insert returned nothing');
  return row;
}

export async function updateModel(
  executor: Executor,
  id: number,
  values: { name: string; definition: unknown; now: Date },
): Promise<DeviceModelRow> {
  const [row] = await executor
    .update(deviceModels)
    .set({ name: values.name, definition: values.definition, updatedAt: values.now })
    .where(eq(deviceModels.id, id))
    .returning();
  if (!row) throw new Error('device_models update returned nothing');
  return row;
}

export async function deleteModel(executor: Executor, id: number): Promise<void> {
  await executor.delete(deviceModels).where(eq(deviceModels.id, id));
}

/** Live barriers on each of these models (by model id). */
export async function barriersUsing(
  executor: Executor,
  ids: readonly number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const keys = ids.map((id) => definedModelKey(id));
  const rows = await executor
    .select({ model: barriers.deviceModel, n: count() })
    .from(barriers)
    .where(and(isNull(barriers.deletedAt), sql`${barriers.deviceModel} in ${keys}`))
    .groupBy(barriers.deviceModel);
  return new Map(rows.map((row) => [Number(row.model.slice('defined:'.length)), row.n]));
}

/** Any barrier, live or deleted, on this model (a deleted one keeps its history naming it). */
export async function anyBarrierUsing(executor: Executor, id: number): Promise<boolean> {
  const [row] = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(and(eq(barriers.deviceModel, definedModelKey(id)), isNull(barriers.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/** The steps of the latest finished run of a barrier that started at or after `since`. */
export async function latestFinishedRunSince(
  executor: Executor,
  barrierId: number,
  since: Date,
): Promise<{ steps: unknown } | undefined> {
  const [row] = await executor
    .select({ steps: deviceConformanceRuns.steps })
    .from(deviceConformanceRuns)
    .where(
      and(
        eq(deviceConformanceRuns.barrierId, barrierId),
        eq(deviceConformanceRuns.status, 'finished'),
        gte(deviceConformanceRuns.createdAt, since),
      ),
    )
    .orderBy(desc(deviceConformanceRuns.id))
    .limit(1);
  return row;
}

/** A live administrator account by its phone (the command line names the model's owner so). */
export async function findAdminByPhone(
  executor: Executor,
  phone: string,
): Promise<{ id: number } | undefined> {
  const [row] = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), eq(users.role, 'admin'), isNull(users.deletedAt)));
  return row;
}
