/** SQL of a barrier's device settings: the passed check, the setting's command, its history row, the pending password. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { actions, barriers, deviceChecks, deviceCommands } from '../../db/schema.ts';

/** Whether a device check of the barrier finished (`ready` or `repaired`). */
export async function hasPassedDeviceCheck(executor: Executor, barrierId: number): Promise<boolean> {
  const [passed] = await executor
    .select({ id: deviceChecks.id })
    .from(deviceChecks)
    .where(and(eq(deviceChecks.barrierId, barrierId), inArray(deviceChecks.status, ['ready', 'repaired'])))
    .limit(1);
  return passed !== undefined;
}

/** A queued device command of kind `setting`; its id (0 if none came back). */
export async function insertSettingCommand(
  executor: Executor,
  values: { barrierId: number; payload: unknown; createdAt: Date },
): Promise<number> {
  const [command] = await executor
    .insert(deviceCommands)
    .values({ ...values, kind: 'setting' })
    .returning({ id: deviceCommands.id });
  return command?.id ?? 0;
}

/** The device password a setting will give the unit, kept until the unit confirms it. */
export async function setPendingDevicePassword(
  executor: Executor,
  barrierId: number,
  passwordEncrypted: string,
  now: Date,
): Promise<void> {
  await executor
    .update(barriers)
    .set({ devicePasswordPendingEncrypted: passwordEncrypted, updatedAt: now })
    .where(eq(barriers.id, barrierId));
}

/** The `barrier_setting` history row of a setting an administrator sent. */
export async function insertSettingAction(
  executor: Executor,
  values: {
    barrierId: number;
    userId: number;
    newValue: { setting: string; params: Record<string, unknown> };
    createdAt: Date;
  },
): Promise<void> {
  await executor.insert(actions).values({
    barrierId: values.barrierId,
    actionType: 'barrier_setting',
    author: 'admin',
    authorUserId: values.userId,
    reason: 'manual',
    newValue: values.newValue,
    createdAt: values.createdAt,
  });
}

/** One setting command of the barrier, with what the settings screen follows. */
export async function findSettingCommand(executor: Executor, barrierId: number, commandId: number) {
  const [command] = await executor
    .select({
      id: deviceCommands.id,
      payload: deviceCommands.payload,
      status: deviceCommands.status,
      lastError: deviceCommands.lastError,
    })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.id, commandId),
        eq(deviceCommands.barrierId, barrierId),
        eq(deviceCommands.kind, 'setting'),
      ),
    );
  return command;
}
