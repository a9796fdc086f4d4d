/**
 * How a device check starts, the same for the administrator's «Проверить устройство», the periodic audit
 * and a declared factory reset: the read queries planned from what the server believes the unit holds, the
 * check stored, its reads queued in the device queue, and the start written to history — all in the
 * caller's transaction (barrier locked by the caller).
 */
import type { DeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { planReadBack, type ReadQuery } from '@propusk/devices/readback';
import type { Executor } from '../../db/database.ts';
import { deviceViewOf, loadDeviceState } from '../../engine/plan/index.ts';
import * as repository from './repository.ts';

/** The read queries of a check: the slots in use (believed, desired, unconfirmed), or every slot (`full`). */
export async function planQueries(
  executor: Executor,
  barrierId: number,
  model: DeviceModel,
  profile: unknown,
  full: boolean,
  now: Date,
): Promise<ReadQuery[]> {
  const state = await loadDeviceState(executor, barrierId);
  const view = deviceViewOf(state, now);
  const specs = state?.specs ?? [];
  const inUse = [
    ...view.believed.entries.map((entry) => entry.slot),
    ...specs.map((spec) => spec.slot),
    ...(view.believed.unconfirmedSlots ?? []),
  ];
  return planReadBack(model, inUse, { full, profile: (profile as DeviceProfileOverride | null) ?? null });
}

export interface CheckStart {
  barrierId: number;
  /** The administrator who asked; null for the periodic audit. */
  requestedBy: number | null;
  full: boolean;
  /** Repair by itself once read (audit, factory reset); the administrator's check waits for «Исправить». */
  autoRepair: boolean;
  queries: ReadQuery[];
  /** The history entry's payload; `queries` (their count) is added. */
  action: { setting: string } & Record<string, unknown>;
  now: Date;
}

/** Stores the check, queues one read command per query and writes the history entry. */
export async function startCheck(tx: Executor, start: CheckStart): Promise<repository.CheckRow> {
  const { barrierId, queries, now } = start;
  const row = await repository.insertCheck(tx, {
    barrierId,
    requestedBy: start.requestedBy,
    full: start.full,
    autoRepair: start.autoRepair,
    queries,
    createdAt: now,
  });
  await repository.queueReadCommands(
    tx,
    barrierId,
    queries.map((query) => ({ check_id: row.id, query })),
    now,
  );
  await repository.insertAction(
    tx,
    barrierId,
    start.requestedBy,
    { ...start.action, queries: queries.length },
    now,
  );
  return row;
}
