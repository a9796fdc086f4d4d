/**
 * SQL of conformance runs (issue 42): the run rows, the step commands, what the context reads of the barrier
 * (the person's number, the slots and numbers in use), the profile a run learns, the messages a run's
 * steps sent and got.
 */
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  barriers,
  deviceCommands,
  deviceConformanceRuns,
  deviceMessages,
  deviceSlots,
  phones,
  users,
} from '../../db/schema.ts';

export type RunRow = typeof deviceConformanceRuns.$inferSelect;
type NewRun = typeof deviceConformanceRuns.$inferInsert;

export async function insertRun(tx: Executor, values: NewRun): Promise<RunRow | undefined> {
  const [run] = await tx.insert(deviceConformanceRuns).values(values).returning();
  return run;
}

export async function updateRun(
  tx: Executor,
  runId: number,
  values: Partial<Pick<RunRow, 'steps' | 'endReason' | 'status' | 'finishedAt' | 'stopRequested'>>,
): Promise<void> {
  await tx.update(deviceConformanceRuns).set(values).where(eq(deviceConformanceRuns.id, runId));
}

/** The run, its row locked (the engine's hook settling one of its steps). */
export async function lockRun(tx: Executor, runId: number): Promise<RunRow | undefined> {
  const [run] = await tx
    .select()
    .from(deviceConformanceRuns)
    .where(eq(deviceConformanceRuns.id, runId))
    .for('update');
  return run;
}

/** The barrier's running run, its row locked. */
export async function lockRunningRun(tx: Executor, barrierId: number): Promise<RunRow | undefined> {
  const [run] = await tx
    .select()
    .from(deviceConformanceRuns)
    .where(and(eq(deviceConformanceRuns.barrierId, barrierId), eq(deviceConformanceRuns.status, 'running')))
    .for('update');
  return run;
}

export async function hasRunningRun(executor: Executor, barrierId: number): Promise<boolean> {
  const [running] = await executor
    .select({ id: deviceConformanceRuns.id })
    .from(deviceConformanceRuns)
    .where(and(eq(deviceConformanceRuns.barrierId, barrierId), eq(deviceConformanceRuns.status, 'running')))
    .limit(1);
  return running !== undefined;
}

export async function latestRun(executor: Executor, barrierId: number): Promise<RunRow | undefined> {
  const [run] = await executor
    .select()
    .from(deviceConformanceRuns)
    .where(eq(deviceConformanceRuns.barrierId, barrierId))
    .orderBy(desc(deviceConformanceRuns.id))
    .limit(1);
  return run;
}

/** A step's device command, queued; its id. */
export async function insertStepCommand(
  tx: Executor,
  values: { barrierId: number; kind: string; payload: unknown; createdAt: Date },
): Promise<number | null> {
  const [command] = await tx.insert(deviceCommands).values(values).returning({ id: deviceCommands.id });
  return command?.id ?? null;
}

/** Takes back a step's command the engine has not sent yet; false when it is already on its way. */
export async function cancelUnsentCommand(tx: Executor, commandId: number, now: Date): Promise<boolean> {
  const cancelled = await tx
    .update(deviceCommands)
    .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null })
    .where(
      and(
        eq(deviceCommands.id, commandId),
        eq(deviceCommands.status, 'queued'),
        eq(deviceCommands.attempts, 0),
      ),
    )
    .returning({ id: deviceCommands.id });
  return cancelled.length > 0;
}

export async function commandReply(tx: Executor, commandId: number): Promise<string | null> {
  const [row] = await tx
    .select({ reply: deviceCommands.reply })
    .from(deviceCommands)
    .where(eq(deviceCommands.id, commandId));
  return row?.reply ?? null;
}

/** Whether a command of the barrier waits for the unit's answer. */
export async function hasCommandAwaitingReply(tx: Executor, barrierId: number): Promise<boolean> {
  const [awaiting] = await tx
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.barrierId, barrierId), inArray(deviceCommands.status, ['sent'])))
    .limit(1);
  return awaiting !== undefined;
}

/** The SMS the steps' commands sent and the answers the log kept (password masked), oldest first. */
export async function stepMessages(executor: Executor, barrierId: number, commandIds: number[]) {
  return executor
    .select({
      commandId: deviceMessages.commandId,
      direction: deviceMessages.direction,
      text: deviceMessages.text,
    })
    .from(deviceMessages)
    .where(and(eq(deviceMessages.barrierId, barrierId), inArray(deviceMessages.commandId, commandIds)))
    .orderBy(deviceMessages.id);
}

export async function barrierModelAndProfile(tx: Executor, barrierId: number) {
  const [barrier] = await tx
    .select({ model: barriers.deviceModel, profile: barriers.deviceProfile })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  return barrier;
}

export async function setDeviceProfile(
  tx: Executor,
  barrierId: number,
  profile: unknown,
  now: Date,
): Promise<void> {
  await tx.update(barriers).set({ deviceProfile: profile, updatedAt: now }).where(eq(barriers.id, barrierId));
}

export async function personPhone(executor: Executor, userId: number): Promise<string | undefined> {
  const [person] = await executor.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  return person?.phone;
}

/** Whether an active phone of the barrier has this number. */
export async function hasActivePhoneNumber(
  executor: Executor,
  barrierId: number,
  number: string,
): Promise<boolean> {
  const [phone] = await executor
    .select({ id: phones.id })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), eq(phones.phone, number), eq(phones.isActive, true)))
    .limit(1);
  return phone !== undefined;
}

/** Whether an active phone of the barrier is in this slot. */
export async function hasActivePhoneInSlot(tx: Executor, barrierId: number, slot: number): Promise<boolean> {
  const [taken] = await tx
    .select({ id: phones.id })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), eq(phones.slot, slot), eq(phones.isActive, true)))
    .limit(1);
  return taken !== undefined;
}

/** The numbers the unit is believed to hold, as it stores them. */
export async function heldNumbers(executor: Executor, barrierId: number): Promise<string[]> {
  const held = await executor
    .select({ number: deviceSlots.number })
    .from(deviceSlots)
    .where(eq(deviceSlots.barrierId, barrierId));
  return held.map((row) => row.number);
}

/** The slots the test number must not take: every phone's and every slot the unit is believed to hold. */
export async function usedSlots(executor: Executor, barrierId: number): Promise<number[]> {
  const owned = await executor
    .select({ slot: phones.slot })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), isNotNull(phones.slot)));
  const held = await executor
    .select({ slot: deviceSlots.slot })
    .from(deviceSlots)
    .where(eq(deviceSlots.barrierId, barrierId));
  return [...owned.flatMap((row) => (row.slot === null ? [] : [row.slot])), ...held.map((row) => row.slot)];
}
