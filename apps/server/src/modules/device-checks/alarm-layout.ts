/**
 * The move of an existing barrier to the alarm layout, offered in «Проверить устройство» (issue 30 item 5,
 * docs/decisions/0025 "Power alarms"): the gateway's number into slot 1, where an RTU-family unit sends its
 * power-failure SMS, and residents out of slots 1–6 (its alarm recipients) where the unit has room
 * (`planAlarmLayoutMove`). The SMS count shown is the outbox's own plan of the move, computed in a
 * transaction that is rolled back; carrying the move out takes the count the administrator confirmed and
 * refuses (409) when the plan costs something else by then. When the configured gateway number changed after
 * the move (issue 32 item 6), the same offer rewrites slot 1 with the new number (`rewrite`), residents stay;
 * when the deployment no longer has a gateway number, it clears slot 1 (`rewrite` with no `gateway_number`).
 */
import type { AlarmLayoutPlan } from '@propusk/contracts/device-checks';
import { hasAlarms, planAlarmLayoutMove } from '@propusk/devices/alarms';
import { isDeviceModel } from '@propusk/devices/models';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, phones } from '../../db/schema.ts';
import { lockBarrier, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { movePhoneSlotsLocked } from '../phones/phone-changes.ts';
import * as repository from './repository.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'notifyDeviceCommands'>;

/** Rolls the preview's transaction back, carrying what it computed. */
class Preview extends Error {
  constructor(readonly sms: number) {
    super('preview');
  }
}

async function layoutOf(deps: Deps, executor: Executor, barrierId: number) {
  const [barrier] = await executor
    .select({
      model: barriers.deviceModel,
      amount: barriers.devicePhonesAmount,
      gatewayNumber: barriers.deviceGatewayNumber,
    })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  const gateway = deps.config.DEVICE_GATEWAY_PHONE ?? null;
  const empty = { moves: [], staying: [], firstResidentSlot: 1, held: null };
  if (!barrier || !isDeviceModel(barrier.model))
    return { ...empty, reason: 'alarm_layout_unsupported' as const, gateway };
  const held = await executor
    .select({ id: phones.id, slot: phones.slot })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true), isNotNull(phones.slot)));
  const plan = planAlarmLayoutMove({
    model: barrier.model,
    amount: barrier.amount,
    phones: held.map((phone) => ({ id: phone.id, slot: phone.slot ?? 0 })),
  });
  const base = {
    moves: plan.moves,
    staying: plan.staying,
    firstResidentSlot: plan.range.first,
    gateway,
    held: null as string | null,
  };
  if (!hasAlarms(barrier.model)) return { ...base, reason: 'alarm_layout_unsupported' as const };
  if (barrier.gatewayNumber) {
    // Slot 1 holds a gateway's number: done, unless the configured number changed since (then slot 1 is
    // rewritten with the new one, residents stay where they are) or the deployment has no gateway number any
    // more (then slot 1 is cleared: a number the server no longer uses must not stay able to open the gate).
    const done = { ...base, moves: [], staying: [], held: barrier.gatewayNumber };
    if (gateway === barrier.gatewayNumber) return { ...done, reason: 'alarm_layout_done' as const };
    return { ...done, reason: null };
  }
  if (gateway === null) return { ...base, reason: 'alarm_layout_no_gateway' as const };
  if (!plan.possible) return { ...base, reason: 'alarm_layout_no_room' as const };
  return { ...base, reason: null };
}

/** Writes the move and plans its commands; returns how many SMS the outbox queued. Barrier locked. */
async function applyLayout(
  deps: Deps,
  tx: Executor,
  barrierId: number,
  layout: Awaited<ReturnType<typeof layoutOf>>,
): Promise<number> {
  const now = deps.clock.now();
  await movePhoneSlotsLocked(tx, barrierId, layout.moves, now);
  await tx
    .update(barriers)
    .set({ deviceGatewayNumber: layout.gateway, updatedAt: now })
    .where(eq(barriers.id, barrierId));
  return syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: true });
}

/** The plan of the move and its exact SMS count (nothing is written). */
export async function getAlarmLayoutPlan(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<AlarmLayoutPlan> {
  await requireBarrierPermission(deps.db, user.id, barrierId, 'settings.manage');
  const layout = await layoutOf(deps, deps.db, barrierId);
  let sms = 0;
  if (layout.reason === null) {
    try {
      await deps.db.transaction(async (tx) => {
        await lockBarrier(tx, barrierId);
        throw new Preview(await applyLayout(deps, tx, barrierId, layout));
      });
    } catch (error) {
      if (!(error instanceof Preview)) throw error;
      sms = error.sms;
    }
  }
  return {
    available: layout.reason === null,
    reason: layout.reason,
    gateway_number: layout.gateway,
    current_gateway_number: layout.held,
    rewrite: layout.held !== null && layout.reason === null,
    moves: layout.moves.map((move) => ({ from: move.from, to: move.to })),
    staying: layout.staying,
    first_resident_slot: layout.firstResidentSlot,
    sms,
  };
}

/** Carries the move out when it still costs `expectedSms`; returns the SMS queued. */
export async function applyAlarmLayout(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
  expectedSms: number,
): Promise<{ queued: number }> {
  const queued = await deps.db.transaction(async (tx) => {
    await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    const layout = await layoutOf(deps, tx, barrierId);
    if (layout.reason !== null) throw conflict(layout.reason);
    const sms = await applyLayout(deps, tx, barrierId, layout);
    // Rolled back with the move: the administrator confirmed another count.
    if (sms !== expectedSms) throw conflict('alarm_layout_cost_changed');
    await repository.insertAction(
      tx,
      barrierId,
      user.id,
      {
        setting: 'alarm_layout',
        moved: layout.moves.length,
        queued: sms,
        ...(layout.held !== null ? { gateway_rewritten: true } : {}),
      },
      deps.clock.now(),
    );
    return sms;
  });
  deps.notifyDeviceCommands([barrierId]);
  return { queued };
}
