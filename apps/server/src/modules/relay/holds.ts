/**
 * The emergency hold-open (issue 16; docs/decisions/0019-relay.md). Starting one: every chosen barrier the
 * administrator holds `relay.hold` on ("all": every one), in one transaction; a barrier whose relay cannot be
 * driven is recorded as refused (shown, shouted), the others get their commands at the head of their queue and
 * their openings not yet sent are cancelled. Never refused by the SMS limit: it is life safety. The engine
 * retries the hold's commands until confirmed. Ending it cancels what has not left and queues the end (DD,
 * relay time restored) where anything was sent.
 */
import { EMERGENCY_RULE, type EmergencyHold, type HoldBarrier } from '@propusk/contracts/relay';
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import { endSteps, holdSteps } from '@propusk/devices/relay';
import type { RelayPayload } from '../../engine/plan/index.ts';
import { lockBarrier } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { pageOffset, paginate, requireBarrierPermission } from '../barrier-policy/policy.ts';
import { cancelPendingOpenings } from './commands.ts';
import {
  barriersForHold,
  cancelQueuedHoldCommands,
  countVisibleHolds,
  findVisibleHold,
  holdMembers,
  insertHold,
  insertHoldBarrier,
  loadHolds,
  lockHold,
  markHoldEnded,
  sentHoldCommands,
} from './hold-repository.ts';
import { relayCheck, stepPayload } from './relay-check.ts';
import {
  type BarrierRow,
  findBarrier,
  knownRelaySeconds,
  queueRelayCommand,
  recordGateAction,
} from './repository.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'notifyDeviceCommands'>;

export async function startHold(
  deps: Deps,
  adminId: number,
  body: { barrier_ids: 'all' | number[]; reason: string },
): Promise<EmergencyHold> {
  const now = deps.clock.now();
  const { holdId, held } = await deps.db.transaction(async (tx) => {
    const ids =
      body.barrier_ids === 'all'
        ? await barriersForHold(tx, adminId)
        : [...new Set(body.barrier_ids)].sort((a, b) => a - b);
    const chosen: { barrier: BarrierRow; refused: string | null }[] = [];
    for (const id of ids) {
      const barrier = await requireBarrierPermission(tx, adminId, id, 'relay.hold');
      await lockBarrier(tx, id);
      const check = await relayCheck(tx, barrier);
      chosen.push({ barrier, refused: check.ok ? null : check.code });
    }
    if (chosen.length === 0) throw conflict('no_barriers_to_hold');
    const firstRefusal = chosen.find((entry) => entry.refused !== null)?.refused;
    if (chosen.every((entry) => entry.refused !== null)) {
      // Nothing can be sent: the first reason, as a single barrier's opening would give it.
      if (firstRefusal === 'device_password_not_set') throw badRequest(firstRefusal);
      throw conflict((firstRefusal ?? 'no_barriers_to_hold') as 'relay_dialect_unknown');
    }
    const holdId = await insertHold(tx, { startedBy: adminId, reason: body.reason, startedAt: now });
    if (holdId === null) throw new Error('hold not stored');
    const heldIds: number[] = [];
    for (const { barrier, refused } of chosen) {
      await insertHoldBarrier(tx, {
        holdId,
        barrierId: barrier.id,
        refused,
        previousRelaySeconds: refused ? null : await knownRelaySeconds(tx, barrier.id),
      });
      await recordGateAction(tx, {
        barrierId: barrier.id,
        author: 'admin',
        authorUserId: adminId,
        reason: body.reason,
        newValue: { setting: 'emergency_hold', hold_id: holdId, refused },
        createdAt: now,
      });
      if (refused) continue;
      // The barrier's other administrators and dispatchers hear of it (issue 43).
      await recordNotification(tx, { kind: 'hold_started', barrierId: barrier.id, actorUserId: adminId });
      await cancelPendingOpenings(tx, barrier.id, now);
      for (const step of holdSteps(barrier.deviceModel as DeviceModel)) {
        await queueRelayCommand(tx, {
          barrierId: barrier.id,
          kind: 'relay_hold',
          payload: stepPayload(step, { hold_id: holdId }),
          createdAt: now,
        });
      }
      heldIds.push(barrier.id);
    }
    return { holdId, held: heldIds };
  });
  deps.notifyDeviceCommands(held);
  return getHold(deps, adminId, holdId);
}

export async function endHold(deps: Deps, adminId: number, holdId: number): Promise<EmergencyHold> {
  const now = deps.clock.now();
  const ending = await deps.db.transaction(async (tx) => {
    const hold = await findVisibleHold(tx, adminId, holdId);
    if (!hold) throw notFound('emergency_hold_not_found');
    const members = await holdMembers(tx, holdId);
    for (const member of members) {
      await requireBarrierPermission(tx, adminId, member.barrierId, 'relay.hold').catch((error: unknown) => {
        // A barrier deleted during the hold is ended all the same (its commands were cancelled with it).
        if (error instanceof HttpError && error.statusCode === 404) return null;
        throw error;
      });
    }
    // Locked again after the check, so that a second end in parallel waits and then finds it ended.
    if (await lockHold(tx, hold.id)) throw conflict('emergency_hold_ended');
    const notified: number[] = [];
    for (const member of members) {
      if (member.refused) continue;
      await lockBarrier(tx, member.barrierId);
      const barrier = await findBarrier(tx, member.barrierId);
      if (!barrier || !isDeviceModel(barrier.deviceModel)) continue;
      // What has not left is not sent; the command in flight finishes first (one command).
      await cancelQueuedHoldCommands(tx, member.barrierId, holdId, now);
      if ((await sentHoldCommands(tx, member.barrierId, holdId)) > 0) {
        const { steps } = endSteps(barrier.deviceModel, member.previousRelaySeconds);
        for (const step of steps) {
          await queueRelayCommand(tx, {
            barrierId: member.barrierId,
            kind: 'relay_release',
            payload: stepPayload(step, { hold_id: holdId }),
            createdAt: now,
          });
        }
        notified.push(member.barrierId);
      }
      await recordGateAction(tx, {
        barrierId: member.barrierId,
        author: 'admin',
        authorUserId: adminId,
        reason: hold.reason,
        newValue: { setting: 'emergency_hold_end', hold_id: holdId },
        createdAt: now,
      });
      if (!member.refused)
        await recordNotification(tx, {
          kind: 'hold_ended',
          barrierId: member.barrierId,
          actorUserId: adminId,
        });
    }
    await markHoldEnded(tx, holdId, adminId, now);
    return notified;
  });
  deps.notifyDeviceCommands(ending);
  return getHold(deps, adminId, holdId);
}

type HoldRecords = Awaited<ReturnType<typeof loadHolds>>;

/** Each hold as the screens read it: per barrier, the phase, its state, retries and the relay time restored. */
function holdViews({ holds, members, commands }: HoldRecords): EmergencyHold[] {
  return holds.map(({ hold, startedByName, endedByName }) => {
    const phase = hold.endedAt ? 'end' : 'hold';
    const kind = phase === 'hold' ? 'relay_hold' : 'relay_release';
    const rows = members
      .filter((member) => member.holdId === hold.id)
      .map((member): HoldBarrier => {
        const own = commands.filter(
          (command) =>
            command.barrierId === member.barrierId &&
            command.kind === kind &&
            command.status !== 'cancelled' &&
            (command.payload as RelayPayload).hold_id === hold.id,
        );
        const restore = own.find((command) => (command.payload as RelayPayload).setting === 'relay_time');
        const state: HoldBarrier['state'] = member.refused
          ? 'refused'
          : own.some((command) => command.status === 'failed')
            ? 'failed'
            : own.every((command) => command.status === 'confirmed')
              ? 'confirmed'
              : 'sent';
        return {
          barrier: member.barrierId,
          address: member.address,
          phase,
          state,
          refused: member.refused,
          retrying: own.some(
            (command) =>
              (command.status === 'queued' || command.status === 'sent') && command.lastError !== null,
          ),
          attempts: own.reduce((sum, command) => sum + command.attempts, 0),
          restored_relay_seconds:
            phase === 'end' && restore
              ? Number((restore.payload as RelayPayload).params.seconds ?? Number.NaN) || 0
              : null,
        };
      });
    return {
      id: hold.id,
      reason: hold.reason,
      rule: EMERGENCY_RULE,
      started_at: apiDateTime(hold.startedAt),
      started_by: hold.startedBy,
      started_by_name: startedByName ?? null,
      ended_at: apiDateTime(hold.endedAt),
      ended_by: hold.endedBy,
      ended_by_name: endedByName ?? null,
      barriers: rows,
    };
  });
}

export async function getHold(deps: Pick<Dependencies, 'db'>, adminId: number, holdId: number) {
  if (!(await findVisibleHold(deps.db, adminId, holdId))) throw notFound('emergency_hold_not_found');
  const [view] = holdViews(await loadHolds(deps.db, { holdId }, 1, 0));
  if (!view) throw notFound('emergency_hold_not_found');
  return view;
}

export async function listHolds(
  deps: Pick<Dependencies, 'db'>,
  adminId: number,
  query: { page: number; page_size: number },
) {
  const items = holdViews(
    await loadHolds(deps.db, { visibleTo: adminId }, query.page_size, pageOffset(query)),
  );
  return paginate('holds', items, await countVisibleHolds(deps.db, adminId), query);
}
